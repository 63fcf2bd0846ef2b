import { csvField } from '../../common/csv';
import { CardDevice } from '../card-device.entity';
import { Card } from '../card.entity';
import { toCardView } from './card.view';

/**
 * The columns of the export, in order. Every field of a card is there; `devices` holds the bound
 * machine codes, one per line, in binding order. The import (cards-import.ts) reads this file back.
 */
export const CARD_CSV_COLUMNS = [
  'id',
  'code',
  'status',
  'duration_seconds',
  'device_limit',
  'activated_at',
  'expires_at',
  'use_count',
  'last_login_at',
  'note',
  'batch_id',
  'kind',
  'uses_left',
  'concurrent_limit',
  'unbind_count',
  'created_at',
  'devices',
] as const;

/** The header row and its line end. */
export function cardsCsvHeader(): string {
  return CARD_CSV_COLUMNS.join(',') + '\r\n';
}

/**
 * RFC 4180 CSV rows of cards (no header): CRLF line ends, null as an empty field. `devices` may
 * hold the bound devices of these cards (and others); each card's are picked out.
 */
export function cardsCsvRows(cards: Card[], devices: CardDevice[] = []): string {
  const byCard = new Map<number, string[]>();
  for (const d of devices) {
    const list = byCard.get(d.cardId);
    if (list) list.push(d.machineCode);
    else byCard.set(d.cardId, [d.machineCode]);
  }
  let out = '';
  for (const card of cards) {
    const view = toCardView(card, []);
    const row: Record<(typeof CARD_CSV_COLUMNS)[number], string | number | null> = {
      ...view,
      unbind_count: card.unbindCount ?? 0,
      created_at: card.createdAt ? card.createdAt.toISOString() : null,
      devices: (byCard.get(card.id) ?? []).join('\n') || null,
    };
    out += CARD_CSV_COLUMNS.map((column) => csvField(row[column])).join(',') + '\r\n';
  }
  return out;
}

/** RFC 4180 CSV of cards: a header row, CRLF line ends, null as an empty field. */
export function cardsCsv(cards: Card[], devices: CardDevice[] = []): string {
  return cardsCsvHeader() + cardsCsvRows(cards, devices);
}
