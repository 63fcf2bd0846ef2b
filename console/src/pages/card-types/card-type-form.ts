import type { Schemas } from '../../api/client';
import type { CardType } from './card-type-queries';

const HOUR = 3600;
const DAY = 86_400;
/** The presets of decisions §19: a month is 30 days, a quarter 90, a year 365. */
export const PRESETS = {
  hour: { kind: 'time', duration_seconds: HOUR },
  day: { kind: 'time', duration_seconds: DAY },
  week: { kind: 'time', duration_seconds: 7 * DAY },
  month: { kind: 'time', duration_seconds: 30 * DAY },
  quarter: { kind: 'time', duration_seconds: 90 * DAY },
  year: { kind: 'time', duration_seconds: 365 * DAY },
  permanent: { kind: 'time', duration_seconds: 0 },
  uses: { kind: 'count', duration_seconds: 0 },
} as const;
export type Preset = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as Preset[];

/** The preset the rules match, if any (a count type is "N uses" whatever its validity). */
export function presetOf(kind: string | undefined, durationSeconds: number | null | undefined): Preset | undefined {
  if (kind === 'count') return 'uses';
  return PRESET_NAMES.find((name) => PRESETS[name].kind === kind && PRESETS[name].duration_seconds === durationSeconds);
}

/** The server's pattern and limit (src/cards/types/card-features.ts). */
export const FEATURE = /^[a-z0-9_.-]{1,32}$/;
export const MAX_FEATURES = 32;
export const MAX_INT32 = 2_147_483_647;
/** The API's pattern for a code prefix (src/cards/card-codes.ts). */
export const PREFIX = /^[A-Za-z0-9-]{0,16}$/;

/** The API's named alphabets for a code's random part, the default first (src/cards/card-codes.ts). */
export const KEY_ALPHABETS = {
  upper_digits_unambiguous: 'ABCDEFGHJKMNPQRSTUVWXYZ23456789',
  upper_digits: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  lower_digits: 'abcdefghijklmnopqrstuvwxyz0123456789',
  digits: '0123456789',
  hex_upper: '0123456789ABCDEF',
} as const;
export type KeyAlphabet = keyof typeof KEY_ALPHABETS;
export const KEY_ALPHABET_NAMES = Object.keys(KEY_ALPHABETS) as KeyAlphabet[];
export const KEY_LENGTH = { min: 8, max: 64, default: 20 } as const;
/** The API refuses codes with less entropy, and a prefix and random part longer than a code's 64 characters. */
export const MIN_KEY_BITS = 40;
export const MAX_CODE_LENGTH = 64;
export const keyBits = (length: number, alphabet: KeyAlphabet): number => length * Math.log2(KEY_ALPHABETS[alphabet].length);
/** The fewest characters of `alphabet` that reach MIN_KEY_BITS. */
export const minKeyLength = (alphabet: KeyAlphabet): number =>
  Math.max(KEY_LENGTH.min, Math.ceil(MIN_KEY_BITS / Math.log2(KEY_ALPHABETS[alphabet].length)));

/** A decimal amount typed by the author as integer cents; rounding absorbs binary fractions (19.9 * 100 = 1989.999…). */
export const toCents = (amount: number): number => Math.round(amount * 100);
export const fromCents = (cents: number): number => cents / 100;

/** The form's values: the price as an amount, the seat limit split like the card forms' (SeatLimitInputs). */
export interface CardTypeDraft {
  name: string;
  kind: 'time' | 'count';
  duration_seconds: number;
  uses?: number | null;
  device_limit: number;
  concurrent_limit?: number | null;
  unlimited_seats: boolean;
  features: string[];
  price: number;
  agent_allowed: boolean;
  prefix?: string;
  key_length: number;
  key_alphabet: KeyAlphabet;
  enabled: boolean;
  for_sale: boolean;
  stock_mode: CardType['stock_mode'];
}

/** A new type starts as a month card (the modal names it after the preset). */
export function toDraft(type: CardType | null): CardTypeDraft {
  if (!type) {
    return {
      name: '',
      ...PRESETS.month,
      device_limit: 1,
      unlimited_seats: true,
      features: [],
      price: 0,
      agent_allowed: false,
      prefix: '',
      key_length: KEY_LENGTH.default,
      key_alphabet: 'upper_digits_unambiguous',
      enabled: true,
      for_sale: false,
      stock_mode: 'mint',
    };
  }
  return {
    name: type.name,
    kind: type.kind,
    duration_seconds: type.duration_seconds,
    uses: type.uses,
    device_limit: type.device_limit,
    concurrent_limit: type.concurrent_limit,
    unlimited_seats: type.concurrent_limit === null,
    features: type.features,
    price: fromCents(type.price_cents),
    agent_allowed: type.agent_allowed,
    prefix: type.prefix,
    key_length: type.key_length,
    key_alphabet: type.key_alphabet,
    enabled: type.enabled,
    for_sale: type.for_sale,
    stock_mode: type.stock_mode,
  };
}

export function toBody(draft: CardTypeDraft): Schemas['CreateCardTypeDto'] {
  return {
    name: draft.name.trim(),
    kind: draft.kind,
    duration_seconds: draft.duration_seconds,
    ...(draft.kind === 'count' ? { uses: draft.uses ?? undefined } : {}),
    device_limit: draft.device_limit,
    concurrent_limit: draft.unlimited_seats ? null : (draft.concurrent_limit ?? null),
    features: draft.features,
    price_cents: toCents(draft.price),
    agent_allowed: draft.agent_allowed,
    prefix: draft.prefix ?? '',
    key_length: draft.key_length,
    key_alphabet: draft.key_alphabet,
    enabled: draft.enabled,
    for_sale: draft.for_sale,
    stock_mode: draft.stock_mode,
  };
}

/** A PATCH of what differs from the saved type; a type becoming a time type drops its uses (null). */
export function changes(type: CardType, body: Schemas['CreateCardTypeDto']): Schemas['UpdateCardTypeDto'] {
  const next: Schemas['UpdateCardTypeDto'] = { ...body, uses: body.kind === 'count' ? body.uses : null };
  return Object.fromEntries(
    Object.entries(next).filter(([name, value]) => JSON.stringify(value) !== JSON.stringify(type[name as keyof CardType])),
  ) as Schemas['UpdateCardTypeDto'];
}
