import { Injectable, StreamableFile } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { AdminPrincipal } from '../../admin-kernel/admin-principal';
import { Page, pageOf } from '../../common/paging';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { DomainEvents } from '../../events/domain-events';
import { ProjectAccess } from '../../projects/project-access';
import { CardDevice } from '../card-device.entity';
import { Card } from '../card.entity';
import { CardSessions } from '../card-sessions';
import { JsonLogger } from '../../core/logging/json-logger';
import { UpdateCardDto } from './card-admin.dto';
import { CardFilters, ExportCardsQuery, ListCardsQuery } from './card-queries.dto';
import { BulkCardsDto } from './card-bulk.dto';
import { CardView, toCardView, toCardViews } from './card.view';
import { noteChange } from '../../common/audit-note';
import { applyCardFilters, orderCards } from './card-filters';
import { BulkResult, CardsBulk } from './cards-bulk';
import { UNBAN_SQL } from './card-writes.repository';
import { CODES_TXT, DATA_CSV, excelCsv, streamCardsCsv } from './cards-csv-stream';
import { AppConfig } from '../../config/app-config';
import { parseIsoInstant } from './iso-instant';
import { CardTypesService } from '../types/card-types.service';
import { Project } from '../../projects/project.entity';
import { DeletedCard, DeletedCardRefunds } from '../deleted-card-refunds';
import { ReplicaReads } from '../../database/replica-reads';

/** Cards of a project as the author manages them: search, export, edits one by one and in bulk, unbind (batches: card-batches.service.ts; imports: card-imports.service.ts). */
@Injectable()
export class CardsAdminService {
  constructor(
    @InjectRepository(Card) private readonly cards: Repository<Card>,
    @InjectRepository(CardDevice) private readonly devices: Repository<CardDevice>,
    private readonly dataSource: DataSource,
    private readonly access: ProjectAccess,
    private readonly sessions: CardSessions,
    private readonly events: DomainEvents,
    private readonly logger: JsonLogger,
    private readonly types: CardTypesService,
    private readonly replicaReads: ReplicaReads,
    private readonly config: AppConfig,
    private readonly refunds: DeletedCardRefunds,
  ) {
    this.bulkActions = new CardsBulk(dataSource, logger, events, refunds, sessions);
  }

  private readonly bulkActions: CardsBulk;

  /** On the read replica when there is one (ReplicaReads). */
  async list(actor: AdminPrincipal, projectId: string, query: ListCardsQuery): Promise<Page<CardView>> {
    const project = await this.access.find(actor, projectId);
    return this.replicaReads.read(actor.id, async (db) => {
      // A plain count(*): TypeORM's getManyAndCount counts DISTINCT ids, a sort of every match (a
      // quarter of a second at a million cards).
      const [rows, total] = await Promise.all([
        orderCards(this.filtered(project.id, query, db), 'c', query.sort)
          .skip(query.skip)
          .take(query.page_size)
          .getMany(),
        this.filtered(project.id, query, db)
          .select('count(*)::integer', 'total')
          .getRawOne<{ total: number }>()
          .then((row) => row?.total ?? 0),
      ]);
      const devices = rows.length
        ? await this.devicesOf(
            rows.map((c) => c.id),
            db,
          )
        : [];
      return pageOf(toCardViews(rows, devices), total, query);
    });
  }

  /**
   * Every card matching the filters as CSV, streamed page by page (cards-csv-stream.ts), from the
   * read replica when there is one. The project is checked first, so a refusal is still an answer
   * in the envelope.
   */
  async exportCsv(
    actor: AdminPrincipal,
    projectId: string,
    query: ExportCardsQuery,
    layout: 'data' | 'excel' | 'txt' = 'data',
  ): Promise<StreamableFile> {
    const project = await this.access.find(actor, projectId);
    return streamCardsCsv(
      (read) => this.replicaReads.read(actor.id, read),
      (db) => this.filtered(project.id, query, db),
      (db, cardIds) => this.devicesOf(cardIds, db),
      (error) => this.logger.entry('error', 'card export failed part-way', { project_id: project.id, error: String(error) }),
      layout === 'excel' ? excelCsv(this.config.APP_TIMEZONE) : layout === 'txt' ? CODES_TXT : DATA_CSV,
    );
  }

  /** The devices of some cards, in binding order (the export's `devices` column). */
  devicesOf(cardIds: number[], db: EntityManager = this.devices.manager): Promise<CardDevice[]> {
    return db.getRepository(CardDevice).find({ where: { cardId: In(cardIds) }, order: { boundAt: 'ASC', machineCode: 'ASC' } });
  }

  /** A bulk action on the cards given by `ids` or matched by `filter` (cards-bulk.ts). */
  async bulk(actor: AdminPrincipal, projectId: string, input: BulkCardsDto): Promise<BulkResult> {
    const project = await this.access.find(actor, projectId);
    return this.bulkActions.run(project.id, input, actor.id);
  }

  async get(actor: AdminPrincipal, projectId: string, cardId: number): Promise<CardView> {
    const project = await this.access.find(actor, projectId);
    return this.view(await this.find(project.id, cardId));
  }

  /**
   * Changes the fields asked for, in one statement, after checking them all against the card: a bad
   * field changes nothing. A login changing the same card meanwhile loses nothing (only the columns
   * asked for are written; an extension is computed in the statement, on the row as it is then).
   */
  async update(actor: AdminPrincipal, projectId: string, cardId: number, input: UpdateCardDto): Promise<CardView> {
    return this.updateIn(actor, await this.access.find(actor, projectId), cardId, input);
  }

  /** `update` on a project the caller has already been let into (an agent's own card: src/agents/agent-cards.service.ts). */
  async updateIn(actor: AdminPrincipal, project: Project, cardId: number, input: UpdateCardDto): Promise<CardView> {
    const card = await this.find(project.id, cardId);
    const problems = updateProblems(card, input);
    if (problems.length) throw new ServiceError(ErrorCode.BAD_REQUEST, problems[0], { details: problems });

    type Raw = () => string;
    const changes: {
      status?: 'banned' | Raw;
      note?: string | null;
      holderEmail?: string | null;
      deviceLimit?: number;
      expiresAt?: Date | null | Raw;
      durationSeconds?: Raw;
      usesLeft?: number;
      concurrentLimit?: number | null;
    } = {};
    if (input.status === 'banned') changes.status = 'banned';
    if (input.status === 'active') changes.status = () => UNBAN_SQL;
    if (input.note !== undefined) changes.note = input.note;
    if (input.holder_email !== undefined) changes.holderEmail = input.holder_email;
    if (input.device_limit !== undefined) changes.deviceLimit = input.device_limit;
    if (input.expires_at !== undefined) changes.expiresAt = input.expires_at === null ? null : parseIsoInstant(input.expires_at);
    if (input.extend_seconds !== undefined) {
      changes.durationSeconds = () =>
        'CASE WHEN activated_at IS NULL THEN LEAST(duration_seconds::bigint + :extend, 2147483647)::integer ELSE duration_seconds END';
      changes.expiresAt = () =>
        'CASE WHEN activated_at IS NULL THEN expires_at ELSE expires_at + make_interval(secs => :extend) END';
    }
    if (input.uses_left !== undefined) changes.usesLeft = input.uses_left;
    if (input.concurrent_limit !== undefined) changes.concurrentLimit = input.concurrent_limit;
    if (Object.keys(changes).length) {
      await this.dataSource.transaction(async (em) => {
        await em
          .createQueryBuilder()
          .update(Card)
          .set(changes)
          .where('id = :id', { id: card.id })
          .setParameter('extend', input.extend_seconds ?? 0)
          .execute();
        // The event commits with the change (decisions §20); a repeated ban or unban changes nothing and says nothing.
        const ref = { card_id: card.id, card_code: card.code };
        if (input.status === 'banned' && card.status !== 'banned') await this.events.emit(em, project.id, 'card.banned', ref);
        if (input.status === 'active' && card.status === 'banned') {
          await this.events.emit(em, project.id, 'card.unbanned', { ...ref, status: card.activatedAt ? 'active' : 'unused' });
        }
      });
    }
    // A ban ends the card's sessions for good: an unban later does not bring them back.
    if (input.status === 'banned') await this.sessions.revokeWhere(project.id, { cardId: card.id }, 'card_banned');
    const after = await this.view(await this.find(project.id, cardId));
    // The audit trail's before and after: the same devices on both sides, so only the card's fields compare.
    const action = input.status === 'banned' ? 'cards.ban' : input.status === 'active' ? 'cards.unban' : undefined;
    noteChange(actor, { action, before: { ...toCardView(card, []), devices: after.devices }, after });
    return after;
  }

  /** An unused card of an agent's order is refunded as it goes, in the same transaction (DeletedCardRefunds). */
  async remove(actor: AdminPrincipal, projectId: string, cardId: number): Promise<void> {
    const project = await this.access.find(actor, projectId);
    await this.dataSource.transaction(async (em) => {
      // DELETE … RETURNING what the refund needs, in one statement.
      const { raw: deleted } = (await em
        .createQueryBuilder()
        .delete()
        .from(Card)
        .where('id = :cardId AND project_id = :projectId', { cardId, projectId: project.id })
        .returning('id, status, order_id')
        .execute()) as { raw: DeletedCard[] };
      if (!deleted.length) throw cardNotFound();
      await this.refunds.refund(em, deleted, actor.id);
    });
  }

  /**
   * The author's unbind of one device: free of the end user's unbind rules (no deduction, no count).
   * Unbinding ends that device's sessions (decisions §4).
   */
  async unbindDevice(actor: AdminPrincipal, projectId: string, cardId: number, machineCode: string): Promise<void> {
    await this.unbindIn(await this.access.find(actor, projectId), cardId, machineCode);
  }

  /** `unbindDevice` on a project the caller has already been let into. */
  async unbindIn(project: Project, cardId: number, machineCode: string): Promise<void> {
    const card = await this.find(project.id, cardId);
    await this.dataSource.transaction(async (em) => {
      const { affected } = await em.delete(CardDevice, { cardId: card.id, machineCode });
      if (!affected) throw new ServiceError(ErrorCode.CARD_DEVICE_NOT_FOUND);
      await this.events.emit(em, project.id, 'device.unbound', {
        card_id: card.id,
        card_code: card.code,
        machine_code: machineCode,
        by: 'author',
      });
    });
    await this.sessions.revokeWhere(project.id, { cardId: card.id, machine: machineCode }, 'device_unbound');
  }

  private filtered(projectId: string, filters: CardFilters, db: EntityManager = this.cards.manager) {
    return applyCardFilters(
      db.getRepository(Card).createQueryBuilder('c').where('c.project_id = :projectId', { projectId }),
      'c',
      filters,
    );
  }

  private async find(projectId: string, cardId: number): Promise<Card> {
    const card = await this.cards.findOneBy({ id: cardId, projectId });
    if (!card) throw cardNotFound();
    return card;
  }

  private async view(card: Card): Promise<CardView> {
    return toCardView(card, await this.devices.find({ where: { cardId: card.id }, order: { boundAt: 'ASC' } }));
  }
}

function cardNotFound(): ServiceError {
  return new ServiceError(ErrorCode.CARD_NOT_FOUND);
}

/**
 * What the card itself forbids of a PATCH, all at once (the DTO has checked each value's form).
 * Each message starts with its field, so `details` names it.
 */
function updateProblems(card: Card, input: UpdateCardDto): string[] {
  const problems: string[] = [];
  const consumed = card.status === 'consumed';
  for (const field of ['status', 'expires_at', 'extend_seconds', 'uses_left'] as const) {
    if (consumed && input[field] !== undefined)
      problems.push(`${field}: a consumed top-up card can never log in again; only its note and limits can change`);
  }
  // Lifting a ban of a stock card would make it a card nobody bought (decisions §26): it is sold or deleted.
  if (card.status === 'stock' && input.status !== undefined)
    problems.push('status: an unsold stock card cannot log in before it is sold; delete it to take it out of the stock');
  if (input.expires_at !== undefined && input.extend_seconds !== undefined) {
    problems.push('expires_at and extend_seconds exclude each other: send one');
  } else if (!consumed) {
    if (input.expires_at !== undefined && card.activatedAt === null) {
      problems.push(
        'expires_at: the card was never activated; its expiry is set at its first login from duration_seconds (extend_seconds adds to that)',
      );
    }
    const permanent = card.activatedAt === null ? card.durationSeconds === 0 : card.expiresAt === null;
    if (input.extend_seconds !== undefined && permanent) {
      problems.push(
        'extend_seconds: the card is permanent, there is nothing to extend (expires_at sets an expiry on an activated card)',
      );
    }
  }
  if (input.uses_left !== undefined && card.kind !== 'count' && !consumed) problems.push('uses_left is for count cards only');
  return problems;
}
