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
import { Card } from '../card.entity';
import { cardSql } from '../card-rule';
import { SessionsService } from '../../sessions/sessions.service';
import { CardFilters, CreateCardsDto, ExportCardsQuery, ListCardsQuery, UpdateCardDto } from './card-admin.dto';
import { CardBatchView, CardView, toCardView, toCardViews } from './card.view';
import { cardsCsv } from './cards-csv';

/** Rows per INSERT ... RETURNING while generating a batch. */
const INSERT_CHUNK = 1000;
/** Draws per chunk before a batch gives up (one collision in 31^20 codes is already unheard of). */
const MAX_DRAWS = 10;

/** Inserts one chunk of codes; a code the project already holds is skipped and drawn again. */
const INSERT_CODES = `
  INSERT INTO cards (project_id, code, duration_seconds, device_limit, note, batch_id)
  SELECT $1::uuid, fresh.code, $3::integer, $4::integer, $5::varchar, $6::uuid FROM unnest($2::varchar[]) AS fresh(code)
  ON CONFLICT (project_id, code) DO NOTHING
  RETURNING code`;

/** Lifts a ban atomically: back to active when the card was ever activated, else unused. */
const UNBAN = "CASE WHEN status <> 'banned' THEN status WHEN activated_at IS NULL THEN 'unused' ELSE 'active' END";

interface BatchPlan {
  projectId: string;
  batchId: string;
  count: number;
  prefix: string;
  durationSeconds: number;
  deviceLimit: number;
  note: string | null;
}

/** Cards of a project as the author manages them: batch generation, search, export, ban, unbind. */
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
  ) {}

  /**
   * Generates a batch in one transaction. With an idempotency key, a repeat of the request (also one
   * racing the first) answers the batch that the first created instead of making another.
   */
  async createBatch(actor: AdminPrincipal, projectId: string, input: CreateCardsDto, idempotencyKey?: string): Promise<CardBatchView> {
    const project = await this.access.find(actor, projectId);
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

  /** Every card matching the filters, oldest first, as CSV. */
  async exportCsv(actor: AdminPrincipal, projectId: string, query: ExportCardsQuery): Promise<string> {
    const project = await this.access.find(actor, projectId);
    return cardsCsv(await this.filtered(project.id, query).orderBy('c.id', 'ASC').getMany());
  }

  async get(actor: AdminPrincipal, projectId: string, cardId: number): Promise<CardView> {
    const project = await this.access.find(actor, projectId);
    return this.view(await this.find(project.id, cardId));
  }

  async update(actor: AdminPrincipal, projectId: string, cardId: number, input: UpdateCardDto): Promise<CardView> {
    const project = await this.access.find(actor, projectId);
    const card = await this.find(project.id, cardId);
    // Only the columns asked for, in one statement: a login changing the same card loses nothing.
    const changes: { status?: 'banned' | (() => string); note?: string | null; deviceLimit?: number } = {};
    if (input.status === 'banned') changes.status = 'banned';
    if (input.status === 'active') changes.status = () => UNBAN;
    if (input.note !== undefined) changes.note = input.note;
    if (input.device_limit !== undefined) changes.deviceLimit = input.device_limit;
    if (Object.keys(changes).length) {
      await this.cards.createQueryBuilder().update(Card).set(changes).where('id = :id', { id: card.id }).execute();
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
    if (!affected) throw new ServiceError(ErrorCode.NOT_FOUND, 'This device is not bound to the card');
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
          plan.projectId, pending, plan.durationSeconds, plan.deviceLimit, plan.note, plan.batchId,
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
      throw new ServiceError(ErrorCode.CONFLICT, 'This Idempotency-Key was already used for a different request', {
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
    const qb = this.cards.createQueryBuilder('c').where('c.project_id = :projectId', { projectId });
    if (filters.status) qb.andWhere('c.status = :status', { status: filters.status });
    if (filters.batch_id) qb.andWhere('c.batch_id = :batchId', { batchId: filters.batch_id });
    if (filters.q) qb.andWhere("c.code ILIKE :like ESCAPE '\\'", { like: `%${filters.q.replace(/[\\%_]/g, '\\$&')}%` });
    if (filters.activated !== undefined) qb.andWhere(filters.activated ? 'c.activated_at IS NOT NULL' : 'c.activated_at IS NULL');
    if (filters.expired !== undefined) {
      qb.andWhere(filters.expired ? cardSql.expired('c') : `NOT ${cardSql.expired('c')}`);
    }
    return qb;
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
  return new ServiceError(ErrorCode.NOT_FOUND, 'Card not found');
}
