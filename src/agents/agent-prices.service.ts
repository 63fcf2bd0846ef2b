import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { CardType } from '../cards/types/card-type.entity';
import { noteChange } from '../common/audit-note';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { AgentPriceView, SetAgentPriceDto } from './agent-price.dto';
import { AgentPricesRepository } from './agent-prices.repository';
import { AgentRow, agentById, agentPrice, unitPrice, visibleAgent } from './agent-rows';

function toView(type: CardType, agent: AgentRow, ownPrice: number | undefined): AgentPriceView {
  return {
    card_type_id: type.id,
    project_id: type.projectId,
    name: type.name,
    enabled: type.enabled,
    price_cents: type.priceCents,
    discount_price_cents: agentPrice(type.priceCents, agent.discountPercent),
    own_price_cents: ownPrice ?? null,
    agent_price_cents: unitPrice(type.priceCents, agent.discountPercent, ownPrice),
  };
}

/**
 * An agent's own price per card type (docs/commerce.md): set by whoever sets its discount (its
 * author, a platform admin, an agent above it; never itself), within the same bound: a sub-agent
 * never pays less than its parent, so the parent's commission is never negative.
 */
@Injectable()
export class AgentPricesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly prices: AgentPricesRepository,
    @InjectRepository(CardType) private readonly types: Repository<CardType>,
  ) {}

  /** Every type the agent may sell (agent-allowed, of its projects), with its price for the agent. */
  async list(actor: AdminPrincipal, agentId: string): Promise<{ items: AgentPriceView[]; total: number }> {
    const agent = await visibleAgent(this.dataSource, actor, agentId);
    const [types, own] = await Promise.all([this.sellable(agent), this.prices.ofAgent(agent.id)]);
    const items = types.map((type) => toView(type, agent, own.get(type.id)));
    return { items, total: items.length };
  }

  async set(actor: AdminPrincipal, agentId: string, typeId: number, input: SetAgentPriceDto): Promise<AgentPriceView> {
    const agent = await this.changeable(actor, agentId);
    const [type] = await this.sellable(agent, typeId);
    if (!type) throw new ServiceError(ErrorCode.CARD_TYPE_NOT_FOUND, undefined, { details: ['card_type_id'] });
    const parent = agent.parentAgentId ? await agentById(this.dataSource, agent.parentAgentId) : null;
    if (parent) {
      const floor = unitPrice(
        type.priceCents,
        parent.discountPercent,
        (await this.prices.ofType(type.id, [parent.id])).get(parent.id),
      );
      if (input.price_cents < floor) {
        const problem = `price_cents: at least the parent's price ${floor}`;
        throw new ServiceError(ErrorCode.AGENT_SCOPE_EXCEEDED, problem, { details: [problem] });
      }
    }
    const before = (await this.prices.ofType(type.id, [agent.id])).get(agent.id);
    await this.prices.set(agent.id, type.id, input.price_cents, actor.id);
    const after = toView(type, agent, input.price_cents);
    noteChange(actor, { before: toView(type, agent, before), after });
    return after;
  }

  /** Back to the discount for that type; removing a price that is not there changes nothing. */
  async remove(actor: AdminPrincipal, agentId: string, typeId: number): Promise<void> {
    const agent = await this.changeable(actor, agentId);
    const before = (await this.prices.ofType(typeId, [agent.id])).get(agent.id);
    if (await this.prices.remove(agent.id, typeId))
      noteChange(actor, { before: { card_type_id: typeId, own_price_cents: before } });
  }

  private async changeable(actor: AdminPrincipal, agentId: string): Promise<AgentRow> {
    const agent = await visibleAgent(this.dataSource, actor, agentId);
    if (actor.role === 'agent' && agent.id === actor.id)
      throw new ServiceError(ErrorCode.FORBIDDEN, 'An agent cannot change its own terms');
    return agent;
  }

  /** The agent-allowed types of the agent's projects (one of them when `typeId` is given). */
  private sellable(agent: AgentRow, typeId?: number): Promise<CardType[]> {
    if (!agent.projectIds.length) return Promise.resolve([]);
    return this.types.find({
      where: { projectId: In(agent.projectIds), agentAllowed: true, ...(typeId === undefined ? {} : { id: typeId }) },
      order: { projectId: 'ASC', name: 'ASC', id: 'ASC' },
    });
  }
}
