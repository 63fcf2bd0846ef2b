import type { Card, Schemas } from '../../api/client';
import { fromZoneInput, toZoneInput } from '../../components/time-zone';

export const DAY = 86_400;
/** The API's limits of `PATCH /cards/:cardId` (src/cards/admin/card-admin.dto.ts). */
export const LIMITS = {
  note: 200,
  holderEmail: 254,
  devices: 1000,
  seats: 1000,
  uses: 1_000_000,
  extendDays: Math.floor(2_147_483_647 / DAY),
} as const;

export interface CardEditValues {
  note: string;
  holder_email: string;
  device_limit: number | null;
  unlimited_seats: boolean;
  concurrent_limit: number | null;
  /** Activated cards only: a date (`expires_at`, wall-clock time in the user's chosen zone) or none. */
  expiry: 'date' | 'permanent';
  expires_at: string;
  extend_days: number | null;
  uses_left: number | null;
}

/** What the card lets an admin change, as the API checks it (cards-admin.service.ts `updateProblems`). */
export function editableParts(card: Card) {
  const consumed = card.status === 'consumed';
  const activated = card.activated_at !== null;
  const permanent = activated ? card.expires_at === null : card.duration_seconds === 0;
  return {
    expiry: !consumed && activated,
    extend: !consumed && !permanent,
    uses: !consumed && card.kind === 'count',
  };
}

/** An instant as a `datetime-local` input shows it: the wall clock of the user's zone, to the minute. */
export function toLocalInput(iso: string | null, zone: string): string {
  return iso ? toZoneInput(new Date(iso), zone) : '';
}

export function initialValues(card: Card, zone: string): CardEditValues {
  return {
    note: card.note ?? '',
    holder_email: card.holder_email ?? '',
    device_limit: card.device_limit,
    unlimited_seats: card.concurrent_limit === null,
    concurrent_limit: card.concurrent_limit,
    expiry: card.activated_at !== null && card.expires_at === null ? 'permanent' : 'date',
    expires_at: toLocalInput(card.expires_at, zone),
    extend_days: null,
    uses_left: card.uses_left,
  };
}

/** True when the form's expiry differs from the card's (to the minute, as the input shows it). */
export function expiryChanged(card: Card, values: Pick<CardEditValues, 'expiry' | 'expires_at'>, zone: string): boolean {
  if (values.expiry === 'permanent') return card.expires_at !== null;
  return values.expires_at !== toLocalInput(card.expires_at, zone);
}

/** The PATCH body: only the fields that differ from the card (an empty body means nothing changed). */
export function changesOf(card: Card, values: CardEditValues, zone: string): Schemas['UpdateCardDto'] {
  const parts = editableParts(card);
  const body: Schemas['UpdateCardDto'] = {};
  const note = values.note === '' ? null : values.note;
  if (note !== card.note) body.note = note;
  const holderEmail = values.holder_email.trim() === '' ? null : values.holder_email.trim();
  if (holderEmail !== card.holder_email) body.holder_email = holderEmail;
  if (values.device_limit !== null && values.device_limit !== card.device_limit) body.device_limit = values.device_limit;
  const seats = values.unlimited_seats ? null : values.concurrent_limit;
  if (seats !== card.concurrent_limit) body.concurrent_limit = seats;
  if (parts.expiry && expiryChanged(card, values, zone)) {
    body.expires_at = values.expiry === 'permanent' ? null : fromZoneInput(values.expires_at, zone).toISOString();
  }
  if (parts.extend && values.extend_days) body.extend_seconds = values.extend_days * DAY;
  if (parts.uses && values.uses_left !== null && values.uses_left !== card.uses_left) body.uses_left = values.uses_left;
  return body;
}
