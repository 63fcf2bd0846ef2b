import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { AgentPrice } from './agent-price.entity';

/** The `agent_prices` table: every query the agents' prices and the orders make on it. */
@Injectable()
export class AgentPricesRepository {
  constructor(@InjectRepository(AgentPrice) private readonly rows: Repository<AgentPrice>) {}

  /** Inside `em`'s transaction when given (an order reads the prices it pays by). */
  private repo(em?: EntityManager): Repository<AgentPrice> {
    return em ? em.getRepository(AgentPrice) : this.rows;
  }

  /** An agent's prices by card type id. */
  async ofAgent(agentId: string, em?: EntityManager): Promise<Map<number, number>> {
    const rows = await this.repo(em).find({ where: { agentId } });
    return new Map(rows.map((r) => [r.cardTypeId, r.priceCents]));
  }

  /** The prices of one card type for these agents (an agent and its parent), by agent id. */
  async ofType(cardTypeId: number, agentIds: string[], em?: EntityManager): Promise<Map<string, number>> {
    if (!agentIds.length) return new Map();
    const rows = await this.repo(em).find({ where: { cardTypeId, agentId: In(agentIds) } });
    return new Map(rows.map((r) => [r.agentId, r.priceCents]));
  }

  /** Sets (or replaces) an agent's price for a type in one statement, so two setters never collide on the key. */
  async set(agentId: string, cardTypeId: number, priceCents: number, updatedBy: string): Promise<void> {
    await this.rows.upsert({ agentId, cardTypeId, priceCents, updatedBy, updatedAt: new Date() }, ['agentId', 'cardTypeId']);
  }

  /** Whether a price was removed (false: there was none). */
  async remove(agentId: string, cardTypeId: number): Promise<boolean> {
    const { affected } = await this.rows.delete({ agentId, cardTypeId });
    return (affected ?? 0) > 0;
  }
}
