import { CardDevice } from '../card-device.entity';
import { Card, CardKind, CardStatus } from '../card.entity';

export interface CardDeviceView {
  machine_code: string;
  bound_at: string;
}

/** The admin API's card resource (decisions §11). */
export interface CardView {
  id: number;
  code: string;
  status: CardStatus;
  kind: CardKind;
  uses_left: number | null;
  concurrent_limit: number | null;
  duration_seconds: number;
  device_limit: number;
  activated_at: string | null;
  expires_at: string | null;
  use_count: number;
  last_login_at: string | null;
  note: string | null;
  batch_id: string | null;
  devices: CardDeviceView[];
}

export interface CardBatchView {
  batch_id: string;
  items: CardView[];
}

export function toCardView(card: Card, devices: CardDevice[]): CardView {
  return {
    id: card.id,
    code: card.code,
    status: card.status,
    kind: card.kind,
    uses_left: card.usesLeft,
    concurrent_limit: card.concurrentLimit,
    duration_seconds: card.durationSeconds,
    device_limit: card.deviceLimit,
    activated_at: iso(card.activatedAt),
    expires_at: iso(card.expiresAt),
    use_count: card.useCount,
    last_login_at: iso(card.lastLoginAt),
    note: card.note,
    batch_id: card.batchId,
    devices: devices.map((d) => ({ machine_code: d.machineCode, bound_at: d.boundAt.toISOString() })),
  };
}

/** Views of several cards, each with its own devices picked out of one list. */
export function toCardViews(cards: Card[], devices: CardDevice[]): CardView[] {
  const byCard = new Map<number, CardDevice[]>();
  for (const d of devices) byCard.set(d.cardId, [...(byCard.get(d.cardId) ?? []), d]);
  return cards.map((c) => toCardView(c, byCard.get(c.id) ?? []));
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
