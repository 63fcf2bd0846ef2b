import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { AdminPrincipal } from '../../admin-auth/admin-principal';
import { Page, pageOf } from '../../common/paging';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { isUniqueViolation } from '../../database/pg-errors';
import { ProjectAccess } from '../../projects/project-access';
import { CardBatch } from '../card-batch.entity';
import { CARD_CODE_LENGTH, CardCodeGenerator } from '../card-codes';
import { CardDevice } from '../card-device.entity';
import { Card, CardKind } from '../card.entity';
import { SessionsService } from '../../sessions/sessions.service';
import { JsonLogger } from '../../core/logging/json-logger';
import type { IncomingMessage } from 'node:http';
import { BulkCardsDto, CardFilters, CreateCardsDto, ExportCardsQuery, ListCardsQuery, UpdateCardDto } from './card-admin.dto';
import { CardBatchView, CardView, toCardView, toCardViews } from './card.view';
import { applyCardFilters } from './card-filters';
import { BulkResult, CardsBulk, UNBAN_SQL } from './cards-bulk';
import { cardsCsvHeader, cardsCsvRows } from './cards-csv';
import { readCsvBody } from './cards-import';
import { CardsImporter, ImportAnswer } from './cards-importer';
import { parseIsoInstant } from './iso-instant';

/** Rows per INSERT ... RETURNING while generating a batch. */
const INSERT_CHUNK = 1000;
/** Draws per chunk before a batch gives up (one collision in 31^20 codes is already unheard of). */
const MAX_DRAWS = 10;

/** Inserts one chunk of codes; a code the project already holds is skipped and drawn again. */
const INSERT_CODES = `
  INSERT INTO cards (project_id, code, duration_seconds, device_limit, note, batch_id, kind, uses_left, concurrent_limit)
  SELECT $1::uuid, fresh.code, $3::integer, $4::integer, $5::varchar, $6::uuid, $7::varchar, $8::integer, $9::integer
  FROM unnest($2::varchar[]) AS fresh(code)
  ON CONFLICT (project_id, code) DO NOTHING
  RETURNING code`;

/** Cards per page of the CSV export (each page with its devices). */
const EXPORT_PAGE = 1000;

interface BatchPlan {
  projectId: string;
  batchId: string;
  count: number;
  prefix: string;
  durationSeconds: number;
  deviceLimit: number;
  note: string | null;
  kind: CardKind;
  usesLeft: number | null;
  concurrentLimit: number | null;
}

/** Cards of a project as the author manages them: batch generation, search, export, import, edits one by one and in bulk, unbind. */
@Injectable()
export class CardsAdminService {
  constructor(
    @InjectRepository(Card) private readonly cards: Repository<Card>,
    @InjectRepository(CardDevice) private readonly devices: Repository<CardDevice>,
    @InjectRepository(CardBatch) private readonly batches: Repository<CardBatch>,
    private readonly dataSource: DataSource,
    private readonly access: ProjectAccess,
    private readonly codes: CardCodeGenerator,
    private readonly sessions: SessionsService,
    private readonly logger: JsonLogger,
  ) {
    this.bulkActions = new CardsBulk(dataSource, logger);
    this.importer = new CardsImporter(dataSource, logger);
  }

  private readonly bulkActions: CardsBulk;
  private readonly importer: CardsImporter;

  /**
   * Generates a batch in one transaction. With an idempotency key, a repeat of the request (also one
   * racing the first) answers the batch that the first created instead of making another.
   */
  async createBatch(actor: AdminPrincipal, projectId: string, input: CreateCardsDto, idempotencyKey?: string): Promise<CardBatchView> {
    const project = await this.access.find(actor, projectId);
    if (input.kind !== 'count' && input.uses !== undefined) {
      throw new ServiceError(ErrorCode.BAD_REQUEST, undefined, { details: ['uses is for count cards only'] });
    }
    if (idempotencyKey !== undefined) {
      const earlier = await this.batches.findOneBy({ projectId: project.id, idempotencyKey });
      if (earlier) return this.replay(earlier, input);
    }
    let batchId: string;
    try {
      batchId = await this.dataSource.transaction(async (em) => {
        // The batch row goes first: a racing twin with the same key waits on its unique index here.
        const { identifiers } = await em.insert(CardBatch, {
          projectId: project.id,
          idempotencyKey: idempotencyKey ?? null,
          count: input.count,
        });
        const id = identifiers[0].id as string;
        await this.insertCards(em, {
          projectId: project.id,
          batchId: id,
          count: input.count,
          prefix: input.prefix ?? '',
          durationSeconds: input.duration_seconds,
          deviceLimit: input.device_limit ?? project.deviceLimit,
          note: input.note ?? null,
          kind: input.kind ?? 'time',
          usesLeft: input.kind === 'count' ? input.uses! : null,
          concurrentLimit: input.concurrent_limit !== undefined ? input.concurrent_limit : project.concurrentLimit,
        });
        return id;
      });
    } catch (error) {
      // The twin committed first: its batch is the answer to this request too.
      if (idempotencyKey === undefined || !isUniqueViolation(error)) throw error;
      const winner = await this.batches.findOneBy({ projectId: project.id, idempotencyKey });
      if (!winner) throw error;
      return this.replay(winner, input);
    }
    const { cards, devices } = await this.loadBatch(batchId);
    return { batch_id: batchId, items: toCardViews(cards, devices) };
  }

  async list(actor: AdminPrincipal, projectId: string, query: ListCardsQuery): Promise<Page<CardView>> {
    const project = await this.access.find(actor, projectId);
    const [rows, total] = await this.filtered(project.id, query)
      .orderBy('c.id', 'DESC')
      .skip(query.skip)
      .take(query.page_size)
      .getManyAndCount();
    const devices = rows.length
      ? await this.devices.find({ where: { cardId: In(rows.map((c) => c.id)) }, order: { boundAt: 'ASC' } })
      : [];
    return pageOf(toCardViews(rows, devices), total, query);
  }

  /**
   * Every card matching the filters, oldest first, as CSV with its devices: read in pages of
   * EXPORT_PAGE cards by keyset over ids, so a large project is never one huge query.
   */
  async exportCsv(actor: AdminPrincipal, projectId: string, query: ExportCardsQuery): Promise<string> {
    const project = await this.access.find(actor, projectId);
    const parts = [cardsCsvHeader()];
    for (let after = 0; ; ) {
      const cards = await this.filtered(project.id, query).andWhere('c.id > :after', { after }).orderBy('c.id', 'ASC').take(EXPORT_PAGE).getMany();
      if (!cards.length) break;
      const devices = await this.devices.find({ where: { cardId: In(cards.map((c) => c.id)) }, order: { boundAt: 'ASC', machineCode: 'ASC' } });
      parts.push(cardsCsvRows(cards, devices));
      if (cards.length < EXPORT_PAGE) break;
      after = cards[cards.length - 1].id;
    }
    return parts.join('');
  }

  /** A bulk action on the cards given by `ids` or matched by `filter` (cards-bulk.ts). */
  async bulk(actor: AdminPrincipal, projectId: string, input: BulkCardsDto): Promise<BulkResult> {
    const project = await this.access.find(actor, projectId);
    return this.bulkActions.run(project.id, input);
  }

  /** The CSV import, or with `dryRun` its report only (cards-importer.ts). */
  async importCsv(actor: AdminPrincipal, projectId: string, request: IncomingMessage, dryRun: boolean): Promise<ImportAnswer> {
    const project = await this.access.find(actor, projectId);
    const csv = await readCsvBody(request);
    return this.importer.run(project.id, csv, { deviceLimit: project.deviceLimit, concurrentLimit: project.concurrentLimit }, dryRun);
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
    const project = await this.access.find(actor, projectId);
    const card = await this.find(project.id, cardId);
    const problems = updateProblems(card, input);
    if (problems.length) throw new ServiceError(ErrorCode.BAD_REQUEST, problems[0], { details: problems });

    type Raw = () => string;
    const changes: {
      status?: 'banned' | Raw; note?: string | null; deviceLimit?: number; expiresAt?: Date | null | Raw; durationSeconds?: Raw;
      usesLeft?: number; concurrentLimit?: number | null;
    } = {};
    if (input.status === 'banned') changes.status = 'banned';
    if (input.status === 'active') changes.status = () => UNBAN_SQL;
    if (input.note !== undefined) changes.note = input.note;
    if (input.device_limit !== undefined) changes.deviceLimit = input.device_limit;
    if (input.expires_at !== undefined) changes.expiresAt = input.expires_at === null ? null : parseIsoInstant(input.expires_at);
    if (input.extend_seconds !== undefined) {
      changes.durationSeconds = () => 'CASE WHEN activated_at IS NULL THEN LEAST(duration_seconds::bigint + :extend, 2147483647)::integer ELSE duration_seconds END';
      changes.expiresAt = () => 'CASE WHEN activated_at IS NULL THEN expires_at ELSE expires_at + make_interval(secs => :extend) END';
    }
    if (input.uses_left !== undefined) changes.usesLeft = input.uses_left;
    if (input.concurrent_limit !== undefined) changes.concurrentLimit = input.concurrent_limit;
    if (Object.keys(changes).length) {
      await this.cards
        .createQueryBuilder()
        .update(Card)
        .set(changes)
        .where('id = :id', { id: card.id })
        .setParameter('extend', input.extend_seconds ?? 0)
        .execute();
    }
    // A ban ends the card's sessions for good: an unban later does not bring them back.
    if (input.status === 'banned') await this.sessions.revokeWhere(project.id, { cardId: card.id });
    return this.view(await this.find(project.id, cardId));
  }

  async remove(actor: AdminPrincipal, projectId: string, cardId: number): Promise<void> {
    const project = await this.access.find(actor, projectId);
    const { affected } = await this.cards.delete({ id: cardId, projectId: project.id });
    if (!affected) throw cardNotFound();
  }

  /**
   * The author's unbind of one device: free of the end user's unbind rules (no deduction, no count).
   * Unbinding ends that device's sessions (decisions §4).
   */
  async unbindDevice(actor: AdminPrincipal, projectId: string, cardId: number, machineCode: string): Promise<void> {
    const project = await this.access.find(actor, projectId);
    const card = await this.find(project.id, cardId);
    const { affected } = await this.devices.delete({ cardId: card.id, machineCode });
    if (!affected) throw new ServiceError(ErrorCode.CARD_DEVICE_NOT_FOUND);
    await this.sessions.revokeWhere(project.id, { cardId: card.id, machine: machineCode });
  }

  private async insertCards(em: EntityManager, plan: BatchPlan): Promise<void> {
    const drawn = new Set<string>();
    const draw = (n: number): string[] => {
      const fresh: string[] = [];
      while (fresh.length < n) {
        const code = this.codes.next(plan.prefix);
        if (!drawn.has(code)) fresh.push(code);
        drawn.add(code);
      }
      return fresh;
    };
    for (let done = 0; done < plan.count; ) {
      let pending = draw(Math.min(INSERT_CHUNK, plan.count - done));
      for (let attempt = 1; pending.length; attempt++) {
        if (attempt > MAX_DRAWS) throw new Error(`card codes kept colliding in project ${plan.projectId}`);
        const inserted: Array<{ code: string }> = await em.query(INSERT_CODES, [
          plan.projectId, pending, plan.durationSeconds, plan.deviceLimit, plan.note, plan.batchId, plan.kind, plan.usesLeft, plan.concurrentLimit,
        ]);
        done += inserted.length;
        pending = draw(pending.length - inserted.length);
      }
    }
  }

  /** The batch an earlier request with this key created, provided this request asks for the same. */
  private async replay(batch: CardBatch, input: CreateCardsDto): Promise<CardBatchView> {
    const { cards, devices } = await this.loadBatch(batch.id);
    const prefix = input.prefix ?? '';
    const sample = cards[0];
    const same =
      batch.count === input.count &&
      (!sample ||
        (sample.durationSeconds === input.duration_seconds &&
          sample.code.length === prefix.length + CARD_CODE_LENGTH &&
          sample.code.startsWith(prefix)));
    if (!same) {
      throw new ServiceError(ErrorCode.IDEMPOTENCY_KEY_REUSED, undefined, {
        details: ['Idempotency-Key was used with another count, duration_seconds or prefix'],
      });
    }
    return { batch_id: batch.id, items: toCardViews(cards, devices) };
  }

  private async loadBatch(batchId: string): Promise<{ cards: Card[]; devices: CardDevice[] }> {
    const [cards, devices] = await Promise.all([
      this.cards.find({ where: { batchId }, order: { id: 'ASC' } }),
      this.devices
        .createQueryBuilder('d')
        .innerJoin('d.card', 'c')
        .where('c.batch_id = :batchId', { batchId })
        .orderBy('d.bound_at', 'ASC')
        .getMany(),
    ]);
    return { cards, devices };
  }

  private filtered(projectId: string, filters: CardFilters) {
    return applyCardFilters(this.cards.createQueryBuilder('c').where('c.project_id = :projectId', { projectId }), 'c', filters);
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
    if (consumed && input[field] !== undefined) problems.push(`${field}: a consumed top-up card can never log in again; only its note and limits can change`);
  }
  if (input.expires_at !== undefined && input.extend_seconds !== undefined) {
    problems.push('expires_at and extend_seconds exclude each other: send one');
  } else if (!consumed) {
    if (input.expires_at !== undefined && card.activatedAt === null) {
      problems.push('expires_at: the card was never activated; its expiry is set at its first login from duration_seconds (extend_seconds adds to that)');
    }
    const permanent = card.activatedAt === null ? card.durationSeconds === 0 : card.expiresAt === null;
    if (input.extend_seconds !== undefined && permanent) {
      problems.push('extend_seconds: the card is permanent, there is nothing to extend (expires_at sets an expiry on an activated card)');
    }
  }
  if (input.uses_left !== undefined && card.kind !== 'count' && !consumed) problems.push('uses_left is for count cards only');
  return problems;
}
