import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { AdminPrincipal } from '../../admin-auth/admin-principal';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { isUniqueViolation } from '../../database/pg-errors';
import { ProjectAccess } from '../../projects/project-access';
import { CardBatch } from '../card-batch.entity';
import { CARD_CODE_LENGTH, CardCodeGenerator } from '../card-codes';
import { CardDevice } from '../card-device.entity';
import { Card, CardKind } from '../card.entity';
import { CreateCardsDto } from './card-admin.dto';
import { CardBatchView, toCardViews } from './card.view';
import { CardType } from '../types/card-type.entity';
import { CardTypesService } from '../types/card-types.service';

/** Rows per INSERT ... RETURNING while generating a batch. */
const INSERT_CHUNK = 1000;
/** Draws per chunk before a batch gives up (one collision in 31^20 codes is already unheard of). */
const MAX_DRAWS = 10;

/** Inserts one chunk of codes; a code the project already holds is skipped and drawn again. */
const INSERT_CODES = `
  INSERT INTO cards (project_id, code, duration_seconds, device_limit, note, batch_id, kind, uses_left, concurrent_limit, card_type_id)
  SELECT $1::uuid, fresh.code, $3::integer, $4::integer, $5::varchar, $6::uuid, $7::varchar, $8::integer, $9::integer, $10::integer
  FROM unnest($2::varchar[]) AS fresh(code)
  ON CONFLICT (project_id, code) DO NOTHING
  RETURNING code`;

/** The fields of a batch request that a card type decides: sent beside `card_type_id`, they are refused. */
const TYPE_RULES = ['kind', 'uses', 'duration_seconds', 'device_limit', 'concurrent_limit', 'prefix'] as const;

/** What creating cards from a type inside a caller's transaction gives back. */
export interface CardsFromType {
  batchId: string;
  /** The new cards, in id order (unused, no devices). */
  cards: Card[];
}

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
  cardTypeId: number | null;
}

/** Batch generation of new card codes (decisions §11, §13), idempotent under an Idempotency-Key. */
@Injectable()
export class CardBatchesService {
  constructor(
    @InjectRepository(Card) private readonly cards: Repository<Card>,
    @InjectRepository(CardDevice) private readonly devices: Repository<CardDevice>,
    @InjectRepository(CardBatch) private readonly batches: Repository<CardBatch>,
    private readonly dataSource: DataSource,
    private readonly access: ProjectAccess,
    private readonly codes: CardCodeGenerator,
    private readonly types: CardTypesService,
  ) {}

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
    await this.insertCards(em, {
      projectId: type.projectId,
      batchId,
      count,
      prefix: type.prefix,
      durationSeconds: type.durationSeconds,
      deviceLimit: type.deviceLimit,
      note: options.note ?? null,
      kind: type.kind,
      usesLeft: type.kind === 'count' ? type.uses : null,
      concurrentLimit: type.concurrentLimit,
      cardTypeId: type.id,
    });
    const cards = await em.getRepository(Card).find({ where: { batchId }, order: { id: 'ASC' } });
    return { batchId, cards };
  }

  /**
   * Generates a batch in one transaction. With an idempotency key, a repeat of the request (also one
   * racing the first) answers the batch that the first created instead of making another.
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
    if (idempotencyKey !== undefined) {
      const earlier = await this.batches.findOneBy({ projectId: project.id, idempotencyKey });
      if (earlier) return this.replay(earlier, input);
    }
    let batchId: string;
    try {
      batchId = await this.dataSource.transaction(async (em) => {
        if (input.card_type_id !== undefined) {
          const type = await this.types.usable(project.id, input.card_type_id, em);
          return (await this.createCardsFromType(em, type, input.count, { note: input.note, idempotencyKey })).batchId;
        }
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
          durationSeconds: input.duration_seconds!,
          deviceLimit: input.device_limit ?? project.deviceLimit,
          note: input.note ?? null,
          kind: input.kind ?? 'time',
          usesLeft: input.kind === 'count' ? input.uses! : null,
          concurrentLimit: input.concurrent_limit !== undefined ? input.concurrent_limit : project.concurrentLimit,
          cardTypeId: null,
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
    for (let done = 0; done < plan.count;) {
      let pending = draw(Math.min(INSERT_CHUNK, plan.count - done));
      for (let attempt = 1; pending.length; attempt++) {
        if (attempt > MAX_DRAWS) throw new Error(`card codes kept colliding in project ${plan.projectId}`);
        // Raw: ON CONFLICT DO NOTHING RETURNING over unnest arrays: the codes that collided are drawn again.
        const inserted: Array<{ code: string }> = await em.query(INSERT_CODES, [
          plan.projectId,
          pending,
          plan.durationSeconds,
          plan.deviceLimit,
          plan.note,
          plan.batchId,
          plan.kind,
          plan.usesLeft,
          plan.concurrentLimit,
          plan.cardTypeId,
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
}
