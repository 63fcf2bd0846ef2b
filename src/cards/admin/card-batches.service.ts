import { Injectable } from '@nestjs/common';
import { CardWritesRepository, FreshCards } from './card-writes.repository';
import { InjectRepository } from '@nestjs/typeorm';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, EntityManager, MoreThan, Repository } from 'typeorm';
import { AdminPrincipal } from '../../admin-kernel/admin-principal';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { isUniqueViolation } from '../../database/pg-errors';
import { ProjectAccess } from '../../projects/project-access';
import { CardBatch } from '../card-batch.entity';
import { CARD_CODE_LENGTH, CardCodeGenerator, CardKeyShape, DEFAULT_KEY_SHAPE } from '../card-codes';
import { CardDevice } from '../card-device.entity';
import { Card } from '../card.entity';
import { CreateCardsDto } from './card-admin.dto';
import { CardBatchView, toCardViews } from './card.view';
import { CardType } from '../types/card-type.entity';
import { CardTypesService } from '../types/card-types.service';
import { IMPORT_HEARTBEAT_MS, rest } from './batch-pacing';
import { CardBatchesRepository } from './card-batches.repository';

/** Rows per INSERT ... RETURNING while making cards inside a caller's transaction (an order: at most 1,000). */
const INSERT_CHUNK = 1000;
/** Rows per INSERT of a generation, and per read of its answer: a few milliseconds of the embedded database each. */
const GENERATION_CHUNK = 250;
const LOAD_CHUNK = 1000;
/** How often a request waits to see whether the twin with its idempotency key has made its batch. */
const GENERATION_WAIT_MS = 100;
/** Draws per chunk before a batch gives up (codes have at least 40 random bits: a collision is rare, ten in a row unheard of). */
const MAX_DRAWS = 10;

/** The fields of a batch request that a card type decides: sent beside `card_type_id`, they are refused. */
const TYPE_RULES = ['kind', 'uses', 'duration_seconds', 'device_limit', 'concurrent_limit', 'prefix'] as const;

/** What creating cards from a type inside a caller's transaction gives back. */
export interface CardsFromType {
  batchId: string;
  /** The new cards, in id order (unused, no devices). */
  cards: Card[];
}

/** A generation: the fields its cards share, and how many codes of which shape. */
interface BatchPlan extends FreshCards {
  count: number;
  prefix: string;
  /** The random part: the type's, or the default for a batch without one. */
  keyShape: CardKeyShape;
}

/** Batch generation of new card codes (decisions §11, §13), idempotent under an Idempotency-Key. */
@Injectable()
export class CardBatchesService {
  /** Batches not yet live: the imports' helper, shared so the import sweep also clears a dead generation's. */
  private readonly pending: CardBatchesRepository;

  constructor(
    @InjectRepository(Card) private readonly cards: Repository<Card>,
    @InjectRepository(CardDevice) private readonly devices: Repository<CardDevice>,
    @InjectRepository(CardBatch) private readonly batches: Repository<CardBatch>,
    private readonly dataSource: DataSource,
    private readonly access: ProjectAccess,
    private readonly codes: CardCodeGenerator,
    private readonly types: CardTypesService,
  ) {
    this.pending = new CardBatchesRepository(dataSource);
  }

  /**
   * Makes `count` cards from a card type inside the caller's transaction `em` (decisions §19): one
   * batch row naming the type, then the cards with the type's kind, duration, uses, device and seat
   * limits and code prefix, each keeping `card_type_id`. Nothing commits unless the caller's
   * transaction does, so an order can debit a balance and create its cards atomically. The caller
   * has checked the type (CardTypesService.usable with the same `em` share-locks it).
   */
  async createCardsFromType(
    em: EntityManager,
    type: CardType,
    count: number,
    options: { note?: string | null; idempotencyKey?: string | null } = {},
  ): Promise<CardsFromType> {
    const { identifiers } = await em.insert(CardBatch, {
      projectId: type.projectId,
      idempotencyKey: options.idempotencyKey ?? null,
      count,
      cardTypeId: type.id,
    });
    const batchId = identifiers[0].id as string;
    await this.insertCards(em, { ...planOfType(type, count, options.note ?? null), batchId, status: 'unused' });
    const cards = await em.getRepository(Card).find({ where: { batchId }, order: { id: 'ASC' } });
    return { batchId, cards };
  }

  /**
   * Generates a batch under a pending batch row, a chunk of codes per statement with a rest after
   * each: on the embedded database (one connection, in the service's own thread) the logins of
   * every other project pass between two chunks, where one transaction of 10,000 cards held them for
   * seconds. The batch turns live when every card is in; a failure deletes what was made, and a
   * process that dies leaves a pending batch that the import sweep deletes (its heartbeat goes stale).
   * With an idempotency key, a repeat of the request (also one racing the first) waits for the
   * batch the first is making and answers it instead of making another.
   */
  async createBatch(
    actor: AdminPrincipal,
    projectId: string,
    input: CreateCardsDto,
    idempotencyKey?: string,
  ): Promise<CardBatchView> {
    const project = await this.access.find(actor, projectId);
    if (input.card_type_id !== undefined) {
      const decided = TYPE_RULES.filter((field) => input[field] !== undefined);
      if (decided.length) {
        throw new ServiceError(ErrorCode.BAD_REQUEST, undefined, {
          details: decided.map((field) => `${field}: the card type decides it; leave it out with card_type_id`),
        });
      }
    } else if (input.kind !== 'count' && input.uses !== undefined) {
      throw new ServiceError(ErrorCode.BAD_REQUEST, undefined, { details: ['uses is for count cards only'] });
    }
    if (input.stock && input.card_type_id === undefined) {
      throw new ServiceError(ErrorCode.BAD_REQUEST, undefined, {
        details: ["stock: stock cards are a card type's stock; name the type in card_type_id"],
      });
    }
    const status = input.stock ? 'stock' : 'unused';
    for (;;) {
      if (idempotencyKey !== undefined) {
        const earlier = await this.finishedBatch(project.id, idempotencyKey);
        if (earlier) return this.replay(earlier, input);
      }
      const type = input.card_type_id !== undefined ? await this.types.usable(project.id, input.card_type_id) : null;
      let batchId: string;
      try {
        batchId = await this.pending.start(project.id, type?.id ?? null, { idempotencyKey, count: input.count });
      } catch (error) {
        // A twin with this key started first: its batch is the answer, once it is made (the loop waits for it).
        if (idempotencyKey === undefined || !isUniqueViolation(error)) throw error;
        continue;
      }
      const plan: BatchPlan = type
        ? { ...planOfType(type, input.count, input.note ?? null), batchId, status }
        : {
            projectId: project.id,
            batchId,
            count: input.count,
            prefix: input.prefix ?? '',
            keyShape: DEFAULT_KEY_SHAPE,
            durationSeconds: input.duration_seconds!,
            deviceLimit: input.device_limit ?? project.deviceLimit,
            note: input.note ?? null,
            kind: input.kind ?? 'time',
            usesLeft: input.kind === 'count' ? input.uses! : null,
            concurrentLimit: input.concurrent_limit !== undefined ? input.concurrent_limit : project.concurrentLimit,
            cardTypeId: null,
            status,
          };
      try {
        await this.insertCards(this.dataSource.manager, plan, () => this.pending.beat(batchId));
        await this.pending.markLive(batchId, input.count);
      } catch (error) {
        // What was made goes; if even that fails, the sweep deletes the pending batch once its heartbeat is stale.
        await this.pending.discard(project.id, batchId).catch(() => undefined);
        throw error;
      }
      const { cards, devices } = await this.loadBatch(batchId);
      return { batch_id: batchId, items: toCardViews(cards, devices) };
    }
  }

  /** The batch made under this key, once it is live; null when there is none (or the one being made failed). */
  private async finishedBatch(projectId: string, idempotencyKey: string): Promise<CardBatch | null> {
    for (;;) {
      const batch = await this.batches.findOneBy({ projectId, idempotencyKey });
      if (!batch || batch.status === 'live') return batch;
      await sleep(GENERATION_WAIT_MS);
    }
  }

  /**
   * Inserts the plan's cards a chunk per statement. With `between` (a staged generation, outside
   * any transaction) it rests after each chunk as long as the chunk took and keeps the batch's
   * heartbeat; inside a caller's transaction (an order, a trial) it goes straight through.
   */
  private async insertCards(em: EntityManager, plan: BatchPlan, between?: () => Promise<unknown>): Promise<void> {
    const drawn = new Set<string>();
    const draw = (n: number): string[] => {
      const fresh: string[] = [];
      while (fresh.length < n) {
        const code = this.codes.next(plan.prefix, plan.keyShape);
        if (!drawn.has(code)) fresh.push(code);
        drawn.add(code);
      }
      return fresh;
    };
    const chunk = between ? GENERATION_CHUNK : INSERT_CHUNK;
    let beaten = performance.now();
    for (let done = 0; done < plan.count;) {
      const started = performance.now();
      let pending = draw(Math.min(chunk, plan.count - done));
      for (let attempt = 1; pending.length; attempt++) {
        if (attempt > MAX_DRAWS) throw new Error(`card codes kept colliding in project ${plan.projectId}`);
        // The codes that collided with the project's are drawn again.
        const inserted = await CardWritesRepository.in(em).insertFresh(plan, pending);
        done += inserted;
        pending = draw(pending.length - inserted);
      }
      if (!between) continue;
      if (performance.now() - beaten > IMPORT_HEARTBEAT_MS) {
        await between();
        beaten = performance.now();
      }
      await rest(started);
    }
  }

  /** The batch an earlier request with this key created, provided this request asks for the same. */
  private async replay(batch: CardBatch, input: CreateCardsDto): Promise<CardBatchView> {
    const { cards, devices } = await this.loadBatch(batch.id);
    const prefix = input.prefix ?? '';
    const sample = cards[0];
    const same =
      batch.count === input.count &&
      batch.cardTypeId === (input.card_type_id ?? null) &&
      (!sample ||
        batch.cardTypeId !== null ||
        (sample.durationSeconds === input.duration_seconds &&
          sample.code.length === prefix.length + CARD_CODE_LENGTH &&
          sample.code.startsWith(prefix)));
    if (!same) {
      throw new ServiceError(ErrorCode.IDEMPOTENCY_KEY_REUSED, undefined, {
        details: ['Idempotency-Key was used with another count, card_type_id, duration_seconds or prefix'],
      });
    }
    return { batch_id: batch.id, items: toCardViews(cards, devices) };
  }

  /** The batch's cards in id order, read a chunk per statement (a 10,000-card answer holds no one up), with their devices. */
  private async loadBatch(batchId: string): Promise<{ cards: Card[]; devices: CardDevice[] }> {
    const cards: Card[] = [];
    for (;;) {
      const started = performance.now();
      const last = cards.length ? cards[cards.length - 1].id : 0;
      const next = await this.cards.find({ where: { batchId, id: MoreThan(last) }, order: { id: 'ASC' }, take: LOAD_CHUNK });
      cards.push(...next);
      if (next.length < LOAD_CHUNK) break;
      await rest(started);
    }
    const devices = await this.devices
      .createQueryBuilder('d')
      .innerJoin('d.card', 'c')
      .where('c.batch_id = :batchId', { batchId })
      .orderBy('d.bound_at', 'ASC')
      .getMany();
    return { cards, devices };
  }
}

/** A generation's plan from a card type: the type's kind, duration, uses, limits, prefix and key shape. */
function planOfType(type: CardType, count: number, note: string | null): Omit<BatchPlan, 'batchId' | 'status'> {
  return {
    projectId: type.projectId,
    count,
    prefix: type.prefix,
    keyShape: { length: type.keyLength, alphabet: type.keyAlphabet },
    durationSeconds: type.durationSeconds,
    deviceLimit: type.deviceLimit,
    note,
    kind: type.kind,
    usesLeft: type.kind === 'count' ? type.uses : null,
    concurrentLimit: type.concurrentLimit,
    cardTypeId: type.id,
  };
}
