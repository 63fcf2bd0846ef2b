import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AdminPrincipal } from '../../admin-kernel/admin-principal';
import { Page, PageQuery, pageOf } from '../../common/paging';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { isForeignKeyViolation, isUniqueViolation } from '../../database/pg-errors';
import { ProjectAccess } from '../../projects/project-access';
import { CARD_CODE_LENGTH, DEFAULT_KEY_ALPHABET, keyShapeProblem } from '../card-codes';
import { CreateCardTypeDto, UpdateCardTypeDto } from './card-type.dto';
import { CardType } from './card-type.entity';
import { CardTypeView, toCardTypeView } from './card-type.view';

/**
 * A project's card types (decisions §19), with the tenancy of every project resource: another
 * author's project is PROJECT_NOT_FOUND, another project's type CARD_TYPE_NOT_FOUND.
 */
@Injectable()
export class CardTypesService {
  constructor(
    @InjectRepository(CardType) private readonly types: Repository<CardType>,
    private readonly access: ProjectAccess,
  ) {}

  async create(actor: AdminPrincipal, projectId: string, input: CreateCardTypeDto): Promise<CardTypeView> {
    const project = await this.access.find(actor, projectId);
    const row = this.types.create({
      projectId: project.id,
      name: input.name,
      kind: input.kind,
      durationSeconds: input.duration_seconds,
      uses: input.uses ?? null,
      deviceLimit: input.device_limit,
      concurrentLimit: input.concurrent_limit ?? null,
      features: input.features,
      priceCents: input.price_cents,
      agentAllowed: input.agent_allowed ?? false,
      prefix: input.prefix ?? '',
      keyLength: input.key_length ?? CARD_CODE_LENGTH,
      keyAlphabet: input.key_alphabet ?? DEFAULT_KEY_ALPHABET,
      enabled: input.enabled ?? true,
      forSale: input.for_sale ?? false,
      stockMode: input.stock_mode ?? 'mint',
    });
    checkUses(row);
    checkSale(row);
    checkKeyShape(row);
    return toCardTypeView(await this.store(row));
  }

  /** In name order. */
  async list(actor: AdminPrincipal, projectId: string, query: PageQuery): Promise<Page<CardTypeView>> {
    const project = await this.access.find(actor, projectId);
    const [rows, total] = await this.types.findAndCount({
      where: { projectId: project.id },
      order: { name: 'ASC', id: 'ASC' },
      skip: query.skip,
      take: query.page_size,
    });
    return pageOf(rows.map(toCardTypeView), total, query);
  }

  async get(actor: AdminPrincipal, projectId: string, id: number): Promise<CardTypeView> {
    const project = await this.access.find(actor, projectId);
    return toCardTypeView(await this.find(project.id, id));
  }

  async update(actor: AdminPrincipal, projectId: string, id: number, input: UpdateCardTypeDto): Promise<CardTypeView> {
    const project = await this.access.find(actor, projectId);
    const row = await this.find(project.id, id);
    if (input.name !== undefined) row.name = input.name;
    if (input.kind !== undefined) {
      // Becoming a time type drops the uses unless the request says otherwise (and is then refused).
      if (input.kind === 'time' && input.uses === undefined) row.uses = null;
      row.kind = input.kind;
    }
    if (input.uses !== undefined) row.uses = input.uses;
    if (input.duration_seconds !== undefined) row.durationSeconds = input.duration_seconds;
    if (input.device_limit !== undefined) row.deviceLimit = input.device_limit;
    if (input.concurrent_limit !== undefined) row.concurrentLimit = input.concurrent_limit;
    if (input.features !== undefined) row.features = input.features;
    if (input.price_cents !== undefined) row.priceCents = input.price_cents;
    if (input.agent_allowed !== undefined) row.agentAllowed = input.agent_allowed;
    if (input.prefix !== undefined) row.prefix = input.prefix;
    if (input.key_length !== undefined) row.keyLength = input.key_length;
    if (input.key_alphabet !== undefined) row.keyAlphabet = input.key_alphabet;
    if (input.enabled !== undefined) row.enabled = input.enabled;
    if (input.for_sale !== undefined) row.forSale = input.for_sale;
    if (input.stock_mode !== undefined) row.stockMode = input.stock_mode;
    checkUses(row);
    checkSale(row);
    checkKeyShape(row);
    return toCardTypeView(await this.store(row));
  }

  /** A type that cards or batches were made from stays (they read its features): CARD_TYPE_IN_USE. */
  async remove(actor: AdminPrincipal, projectId: string, id: number): Promise<void> {
    const project = await this.access.find(actor, projectId);
    try {
      const { affected } = await this.types.delete({ id, projectId: project.id });
      if (!affected) throw notFound();
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new ServiceError(ErrorCode.CARD_TYPE_IN_USE);
      throw error;
    }
  }

  /**
   * The type a batch, an import (or an order) makes cards from: of this project and enabled.
   * With `em`, read in the caller's transaction and share-locked, so the type cannot be deleted or
   * changed under the cards being made from it.
   */
  async usable(projectId: string, id: number, em?: EntityManager): Promise<CardType> {
    const query = (em ?? this.types.manager)
      .getRepository(CardType)
      .createQueryBuilder('t')
      .where('t.id = :id AND t.project_id = :projectId', { id, projectId });
    if (em) query.setLock('pessimistic_read');
    const row = await query.getOne();
    if (!row) throw new ServiceError(ErrorCode.CARD_TYPE_NOT_FOUND, undefined, { details: ['card_type_id'] });
    if (!row.enabled) throw new ServiceError(ErrorCode.CARD_TYPE_DISABLED, undefined, { details: ['card_type_id'] });
    return row;
  }

  private async store(row: CardType): Promise<CardType> {
    try {
      return await this.types.save(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ServiceError(ErrorCode.CARD_TYPE_NAME_TAKEN, undefined, { details: ['name'] });
      throw error;
    }
  }

  private async find(projectId: string, id: number): Promise<CardType> {
    const row = await this.types.findOneBy({ id, projectId });
    if (!row) throw notFound();
    return row;
  }
}

/** A count type needs its uses, a time type has none: a 400 naming `uses`, never the table's CHECK as a 500. */
function checkUses(row: CardType): void {
  if (row.kind === 'count' && row.uses === null) {
    throw new ServiceError(ErrorCode.BAD_REQUEST, undefined, { details: ['uses is required for a count type'] });
  }
  if (row.kind === 'time' && row.uses !== null) {
    throw new ServiceError(ErrorCode.BAD_REQUEST, undefined, { details: ['uses is for count types only'] });
  }
}

/** A storefront cannot take a payment of nothing: a type for sale has a price (decisions §26). */
function checkSale(row: CardType): void {
  if (row.forSale && row.priceCents <= 0) {
    throw new ServiceError(ErrorCode.BAD_REQUEST, undefined, {
      details: ['for_sale: a type for sale needs a price_cents above 0'],
    });
  }
}

/** Codes too easy to guess, or too long for cards.code: a 400 naming the fields, checked on the result of a change. */
function checkKeyShape(row: CardType): void {
  const problem = keyShapeProblem(row.prefix, { length: row.keyLength, alphabet: row.keyAlphabet });
  if (problem) throw new ServiceError(ErrorCode.BAD_REQUEST, undefined, { details: [problem] });
}

function notFound(): ServiceError {
  return new ServiceError(ErrorCode.CARD_TYPE_NOT_FOUND);
}
