import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { AgentPricesRepository } from '../agents/agent-prices.repository';
import { AgentRow, agentById, selfAgent, unitPrice } from '../agents/agent-rows';
import { toCardViews } from '../cards/admin/card.view';
import { CardDevice } from '../cards/card-device.entity';
import { Card } from '../cards/card.entity';
import { CardTypesService } from '../cards/types/card-types.service';
import { Page, pageOf } from '../common/paging';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { isUniqueViolation } from '../database/pg-errors';
import { ProjectAccess } from '../projects/project-access';
import { Project } from '../projects/project.entity';
import { CreateOrderDto, ListOrdersQuery, RefundDto } from './order.dto';
import { OrderView, OrderWithCardsView, RefundView } from './order.view';
import { Order } from './order.entity';
import { refundDeletedCards } from './order-refunds';
import { OrdersRepository } from './orders.repository';
import { OrderPlacement } from './order-placement';

/** Who is buying: the project, and the agent (null when its author or a platform admin orders, for free). */
interface Buyer {
  projectId: string;
  agent: AgentRow | null;
}

/**
 * Orders (decisions §19): the price is debited and the cards made in one transaction, the parent
 * agent earns its commission in it too, and `(project, order_id)` makes a retry, or a twin racing
 * on another instance, answer the first order instead of buying twice.
 */
@Injectable()
export class OrdersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: ProjectAccess,
    private readonly types: CardTypesService,
    private readonly placement: OrderPlacement,
    private readonly prices: AgentPricesRepository,
    @InjectRepository(Card) private readonly cards: Repository<Card>,
    @InjectRepository(CardDevice) private readonly devices: Repository<CardDevice>,
  ) {}

  /** `created` false: a replay of an earlier order with the same body (200, not 201). */
  async create(
    actor: AdminPrincipal,
    projectId: string,
    input: CreateOrderDto,
  ): Promise<{ order: OrderWithCardsView; created: boolean }> {
    const buyer = await this.buyer(actor, projectId);
    const earlier = await OrdersRepository.in(this.dataSource).find(buyer.projectId, input.order_id);
    if (earlier) return { order: await this.replay(earlier, buyer, input), created: false };
    let id: string;
    try {
      id = await this.dataSource.transaction((em) => this.place(em, actor, buyer, input));
    } catch (error) {
      // The project was deleted while this order was placed (its type gone, or its key refused):
      // whatever failed, that is the answer, and nothing was paid or made.
      if (!(await this.projectExists(buyer.projectId))) throw new ServiceError(ErrorCode.PROJECT_NOT_FOUND);
      if (!isUniqueViolation(error)) throw error;
      // A twin with this order_id committed first (here or on another instance): its order is the answer.
      const winner = await OrdersRepository.in(this.dataSource).find(buyer.projectId, input.order_id);
      if (!winner) throw error;
      return { order: await this.replay(winner, buyer, input), created: false };
    }
    return { order: await this.withCards((await OrdersRepository.in(this.dataSource).byId(id))!), created: true };
  }

  async list(actor: AdminPrincipal, projectId: string, query: ListOrdersQuery): Promise<Page<OrderView>> {
    const buyer = await this.buyer(actor, projectId);
    const agentId = buyer.agent?.id ?? query.agent_id ?? null;
    const [rows, total] = await OrdersRepository.in(this.dataSource).page(buyer.projectId, agentId, query.skip, query.page_size);
    return pageOf(rows.map(toOrderView), total, query);
  }

  async get(actor: AdminPrincipal, projectId: string, orderId: string): Promise<OrderWithCardsView> {
    const buyer = await this.buyer(actor, projectId);
    return this.withCards(await this.visibleRow(buyer, orderId));
  }

  /** Deletes the order's unused cards asked for (all, without `card_ids`) and credits them back; used cards stay. */
  async refund(actor: AdminPrincipal, projectId: string, orderId: string, input: RefundDto): Promise<RefundView> {
    const project = await this.access.find(actor, projectId);
    const order = await this.visibleRow({ projectId: project.id, agent: null }, orderId);
    const totals = await this.dataSource.transaction(async (em) => {
      const deleted = await OrdersRepository.in(em).deleteUnusedCards(project.id, order.id, input.card_ids ?? null);
      return refundDeletedCards(em, deleted, actor.id);
    });
    return {
      card_ids: totals.cardIds.sort((a, b) => a - b),
      refunded_cents: totals.refundedCents,
      clawback_cents: totals.clawbackCents,
    };
  }

  /** The order's writes, all or none (OrderPlacement); here the agent's price and its parent's commission are decided. */
  private async place(em: EntityManager, actor: AdminPrincipal, buyer: Buyer, input: CreateOrderDto): Promise<string> {
    const type = await this.types.usable(buyer.projectId, input.card_type_id, em);
    const agent = buyer.agent;
    if (agent && !type.agentAllowed)
      throw new ServiceError(ErrorCode.CARD_TYPE_NOT_FOUND, undefined, { details: ['card_type_id'] });
    // A disabled parent earns nothing (an order can pass the sign-in check the moment before it is disabled).
    const above = agent?.parentAgentId ? await agentById(em, agent.parentAgentId) : null;
    const parent = above?.status === 'active' ? above : null;
    // Each agent's own price for the type when set, else the list price less its discount.
    const own = agent
      ? await this.prices.ofType(type.id, parent ? [agent.id, parent.id] : [agent.id], em)
      : new Map<string, number>();
    const unit = agent ? unitPrice(type.priceCents, agent.discountPercent, own.get(agent.id)) : 0;
    // The parent's own price is lower (a larger discount, or a lower price of its own): the difference per card is its commission.
    const commissionUnit = parent
      ? Math.max(0, unit - unitPrice(type.priceCents, parent.discountPercent, own.get(parent.id)))
      : 0;
    const placed = await this.placement.place(em, {
      projectId: buyer.projectId,
      orderId: input.order_id,
      type,
      count: input.count,
      actorId: actor.id,
      agent,
      commissionAgent: commissionUnit > 0 ? parent : null,
      unitCents: unit,
      commissionUnitCents: commissionUnit,
    });
    return placed.id;
  }

  /** A replay answers the earlier order when it asks for the same thing, by the same buyer; anything else is ORDER_CONFLICT. */
  private async replay(row: Order, buyer: Buyer, input: CreateOrderDto): Promise<OrderWithCardsView> {
    const same = row.cardTypeId === input.card_type_id && row.count === input.count && row.agentId === (buyer.agent?.id ?? null);
    if (!same)
      throw new ServiceError(ErrorCode.ORDER_CONFLICT, undefined, {
        details: ['order_id was used for an order with another card_type_id, count or buyer'],
      });
    return this.withCards(row);
  }

  /** An agent orders for the projects it was given; anyone else through the project rule (author: own, platform admin: all). */
  private async buyer(actor: AdminPrincipal, projectId: string): Promise<Buyer> {
    if (actor.role !== 'agent') return { projectId: (await this.access.find(actor, projectId)).id, agent: null };
    const agent = await selfAgent(this.dataSource, actor);
    if (!agent.projectIds.includes(projectId)) throw new ServiceError(ErrorCode.PROJECT_NOT_FOUND);
    return { projectId, agent };
  }

  /** An agent sees its own orders only. */
  private async visibleRow(buyer: Buyer, orderId: string): Promise<Order> {
    const row = await OrdersRepository.in(this.dataSource).find(buyer.projectId, orderId);
    if (!row || (buyer.agent && row.agentId !== buyer.agent.id)) throw new ServiceError(ErrorCode.ORDER_NOT_FOUND);
    return row;
  }

  private projectExists(projectId: string): Promise<boolean> {
    return this.dataSource.getRepository(Project).existsBy({ id: projectId });
  }

  private async withCards(row: Order): Promise<OrderWithCardsView> {
    const cards = await this.cards.find({ where: { orderId: row.id }, order: { id: 'ASC' } });
    const devices = cards.length
      ? await this.devices.find({ where: { cardId: In(cards.map((c) => c.id)) }, order: { boundAt: 'ASC' } })
      : [];
    return { ...toOrderView(row), items: toCardViews(cards, devices) };
  }
}

function toOrderView(row: Order): OrderView {
  return {
    order_id: row.orderId,
    project_id: row.projectId!,
    card_type_id: row.cardTypeId!,
    count: row.count,
    agent_id: row.agentId,
    unit_price_cents: row.unitPriceCents,
    total_cents: row.totalCents,
    refunded_count: row.refundedCount,
    batch_id: row.batchId,
    created_at: row.createdAt.toISOString(),
  };
}
