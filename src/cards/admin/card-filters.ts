import { SelectQueryBuilder } from 'typeorm';
import { cardSql } from '../card-rule';
import { Card } from '../card.entity';
import { CARD_FILTER_KEYS, CardFilters, CardSort } from './card-queries.dto';
import { parseIsoInstant } from './iso-instant';

/** `%`, `_` and `\` taken literally in a LIKE pattern (with `ESCAPE '\'`). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

/** True when the filters hold at least one criterion (an empty bulk filter is refused). */
export function hasCriterion(filters: Partial<CardFilters>): boolean {
  return CARD_FILTER_KEYS.some((key) => filters[key] !== undefined);
}

/**
 * The one card filter of the admin API: the list, the CSV export and bulk actions narrow
 * `qb` (cards aliased `alias`, already limited to one project) with it. Expiry uses the card rule's
 * SQL (`cardSql.expired`); ranges are half-open (from ≤ t < to), and a card without an expiry (never
 * activated, or permanent) never falls in an expiry range.
 */
export function applyCardFilters<T extends SelectQueryBuilder<Card>>(qb: T, alias: string, filters: Partial<CardFilters>): T {
  const c = alias;
  if (filters.status) qb.andWhere(`${c}.status = :f_status`, { f_status: filters.status });
  if (filters.batch_id) qb.andWhere(`${c}.batch_id = :f_batch`, { f_batch: filters.batch_id });
  if (filters.kind) qb.andWhere(`${c}.kind = :f_kind`, { f_kind: filters.kind });
  if (filters.q) {
    // A code is [A-Za-z0-9-] only: a search with an `@` can only mean a holder's e-mail.
    const column = filters.q.includes('@') ? 'holder_email' : 'code';
    qb.andWhere(`${c}.${column} ILIKE :f_like ESCAPE '\\'`, { f_like: `%${likeLiteral(filters.q)}%` });
  }
  if (filters.code_prefix)
    qb.andWhere(`${c}.code LIKE :f_prefix ESCAPE '\\'`, { f_prefix: `${likeLiteral(filters.code_prefix)}%` });
  if (filters.machine) {
    qb.andWhere(
      `EXISTS (SELECT 1 FROM card_devices f_device WHERE f_device.card_id = ${c}.id AND f_device.machine_code = :f_machine)`,
      { f_machine: filters.machine },
    );
  }
  if (filters.activated !== undefined)
    qb.andWhere(filters.activated ? `${c}.activated_at IS NOT NULL` : `${c}.activated_at IS NULL`);
  if (filters.expired !== undefined) qb.andWhere(filters.expired ? cardSql.expired(c) : `NOT ${cardSql.expired(c)}`);
  const ranges: Array<[keyof CardFilters, string, '>=' | '<']> = [
    ['created_from', 'created_at', '>='],
    ['created_to', 'created_at', '<'],
    ['expires_from', 'expires_at', '>='],
    ['expires_to', 'expires_at', '<'],
  ];
  for (const [key, column, op] of ranges) {
    const text = filters[key];
    if (typeof text !== 'string') continue;
    // Validated by the DTO; a value that got past it unparsed would be a bug, not a filter to drop.
    const instant = parseIsoInstant(text);
    if (!instant) throw new Error(`${key} is not an ISO instant`);
    qb.andWhere(`${c}.${column} ${op} :f_${key}`, { [`f_${key}`]: instant });
  }
  return qb;
}

/**
 * Orders `qb` by `sort` (default newest first), then by id in the same direction so that pages
 * never overlap or skip among equal values (a batch shares one created_at). A card with no expiry
 * or no login yet has nothing to compare: it comes last in both directions.
 */
export function orderCards<T extends SelectQueryBuilder<Card>>(qb: T, alias: string, sort: CardSort = '-created_at'): T {
  const descending = sort.startsWith('-');
  const column = descending ? sort.slice(1) : sort;
  const direction = descending ? 'DESC' : 'ASC';
  const nullable = column === 'expires_at' || column === 'last_login_at';
  return qb.orderBy(`${alias}.${column}`, direction, nullable ? 'NULLS LAST' : undefined).addOrderBy(`${alias}.id`, direction);
}
