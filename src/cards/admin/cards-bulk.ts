import { ApiProperty } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { JsonLogger } from '../../core/logging/json-logger';
import { DomainEvents } from '../../events/domain-events';
import { Card, CardKind } from '../card.entity';
import { BULK_ACTION_PARAM, BULK_ACTIONS, BULK_PARAMS, BulkAction, BulkCardsDto } from './card-bulk.dto';
import { applyCardFilters, hasCriterion } from './card-filters';
import { parseIsoInstant } from './iso-instant';
import { CardSessions } from '../card-sessions';
import { DeletedCard, DeletedCardRefunds } from '../deleted-card-refunds';
import { CardWritesRepository } from './card-writes.repository';

/** Card ids per statement (and per transaction) of a bulk action. */
export const BULK_CHUNK = 1000;
/** Ids read per keyset page while the target of a filter is collected. */
const COLLECT_PAGE = 10_000;

export class BulkResult {
  @ApiProperty({ enum: BULK_ACTIONS }) action!: BulkAction;
  @ApiProperty({ type: 'integer', description: 'cards the ids or the filter matched' }) matched!: number;
  @ApiProperty({ type: 'integer', description: 'cards the action changed (an unban of an active card changes nothing)' })
  changed!: number;
}

interface Target {
  id: number;
  kind: CardKind;
}

/**
 * Bulk actions on a project's cards (docs/decisions.md, "Card administration"). The target (ids, or
 * a filter of the list's criteria) is collected first, by keyset over card ids, then changed chunk
 * by chunk, each chunk in a short transaction of its own: a large action never holds one long
 * transaction, and requests (logins) go on between the chunks.
 */
export class CardsBulk {
  constructor(
    private readonly dataSource: DataSource,
    private readonly logger: JsonLogger,
    private readonly events: DomainEvents,
    private readonly refunds: DeletedCardRefunds,
    // A ban ends the banned cards' live sessions in the chunk's transaction (decisions §5, §18).
    private readonly sessions: CardSessions,
  ) {}

  async run(projectId: string, input: BulkCardsDto, actorId: string | null = null): Promise<BulkResult> {
    const value = checkInput(input);
    const targets = input.ids ? await this.byIds(projectId, input.ids) : await this.byFilter(projectId, input.filter!);
    if (targets.length === 0) {
      throw new ServiceError(ErrorCode.MATCHING_CARDS_NOT_FOUND, undefined, { details: { matched: 0 } });
    }
    if (input.action === 'set_uses') {
      const timeCards = targets.filter((t) => t.kind !== 'count').length;
      if (timeCards > 0) {
        throw new ServiceError(ErrorCode.BAD_REQUEST, 'uses_left is for count cards only', {
          details: [
            `uses_left is for count cards only: ${timeCards} of the ${targets.length} cards are time cards (add kind: count to the filter)`,
          ],
        });
      }
    }
    const started = Date.now();
    let changed = 0;
    const ids = targets.map((t) => t.id);
    for (let i = 0; i < ids.length; i += BULK_CHUNK) {
      const chunk = ids.slice(i, i + BULK_CHUNK);
      changed += await this.dataSource.transaction(async (em) => {
        const params: unknown[] = [projectId, chunk];
        if (value !== undefined) params.push(value);
        const result = await CardWritesRepository.in(em).bulk(input.action, params);
        // Each card the action changed has its event, in the chunk's transaction (decisions §20).
        if (input.action === 'ban' || input.action === 'unban') {
          const changedCards = result.rows as Array<{ id: number; code: string; status: string }>;
          if (input.action === 'ban')
            await this.events.emitMany(
              em,
              projectId,
              'card.banned',
              changedCards.map((c) => ({ card_id: c.id, card_code: c.code })),
            );
          else
            await this.events.emitMany(
              em,
              projectId,
              'card.unbanned',
              changedCards.map((c) => ({ card_id: c.id, card_code: c.code, status: c.status })),
            );
        }
        if (input.action === 'ban') await this.sessions.revokeCardsIn(em, projectId, chunk, 'card_banned');
        if (input.action === 'delete') await this.refunds.refund(em, result.rows as DeletedCard[], actorId);
        return result.changed;
      });
    }
    this.logger.entry('info', 'bulk card action', {
      project_id: projectId,
      action: input.action,
      matched: ids.length,
      changed,
      chunks: Math.ceil(ids.length / BULK_CHUNK),
      ms: Date.now() - started,
    });
    return { action: input.action, matched: ids.length, changed };
  }

  /** The cards of the project among `ids` (at most MAX_BULK_IDS, checked by the DTO). */
  private async byIds(projectId: string, ids: number[]): Promise<Target[]> {
    const unique = [...new Set(ids)];
    const found: Target[] = [];
    for (let i = 0; i < unique.length; i += COLLECT_PAGE) {
      // A page of ids as one int[] parameter (ANY), not one parameter per id.
      const rows = await this.dataSource
        .getRepository(Card)
        .createQueryBuilder('c')
        .select(['c.id AS id', 'c.kind AS kind'])
        .where('c.project_id = :projectId AND c.id = ANY(:ids::int[])', { projectId, ids: unique.slice(i, i + COLLECT_PAGE) })
        .orderBy('c.id', 'ASC')
        .getRawMany<{ id: number; kind: CardKind }>();
      found.push(...rows.map((r) => ({ id: Number(r.id), kind: r.kind })));
    }
    return found;
  }

  /** Every card the filter matches now, read page by page in id order (keyset: no OFFSET, no long transaction). */
  private async byFilter(projectId: string, filter: NonNullable<BulkCardsDto['filter']>): Promise<Target[]> {
    const found: Target[] = [];
    for (let after = 0; ;) {
      const qb = this.dataSource
        .getRepository(Card)
        .createQueryBuilder('c')
        .select(['c.id AS id', 'c.kind AS kind'])
        .where('c.project_id = :projectId', { projectId });
      applyCardFilters(qb, 'c', filter).andWhere('c.id > :after', { after }).orderBy('c.id', 'ASC').limit(COLLECT_PAGE);
      const rows = await qb.getRawMany<{ id: number; kind: CardKind }>();
      found.push(...rows.map((r) => ({ id: Number(r.id), kind: r.kind })));
      if (rows.length < COLLECT_PAGE) return found;
      after = Number(rows[rows.length - 1].id);
    }
  }
}

/**
 * The request's own rules, before anything is read: exactly one target, a filter with a criterion,
 * the action's parameter present and no other. Answers the action's value (undefined for none).
 */
function checkInput(input: BulkCardsDto): unknown {
  const problems: string[] = [];
  if ((input.ids === undefined) === (input.filter === undefined)) problems.push('give exactly one of ids or filter');
  if (input.filter !== undefined && !input.filter.all && !hasCriterion(input.filter)) {
    problems.push('filter needs at least one criterion; {"all": true} targets every card of the project');
  }
  const param = BULK_ACTION_PARAM[input.action];
  for (const name of BULK_PARAMS) {
    if (name !== param && input[name] !== undefined) problems.push(`${name} is not a parameter of ${input.action}`);
  }
  if (param !== null && input[param] === undefined) problems.push(`${param} is required for ${input.action}`);
  if (problems.length) throw new ServiceError(ErrorCode.BAD_REQUEST, problems[0], { details: problems });
  if (param === null) return undefined;
  if (param === 'expires_at') return input.expires_at === null ? null : parseIsoInstant(input.expires_at!)!.toISOString();
  return input[param];
}
