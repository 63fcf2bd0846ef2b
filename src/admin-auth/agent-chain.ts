import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AgentsRepository } from '../agents/agents.repository';

/**
 * An agent acts only while it, every agent above it and the author it sells for are all active:
 * disabling an author or a parent agent stops the whole tree under it (sign-in, tokens, API keys,
 * orders), without touching the agents' own accounts, so enabling it again restores them.
 */
@Injectable()
export class AgentChain {
  constructor(private readonly dataSource: DataSource) {}

  active(agentId: string): Promise<boolean> {
    return AgentsRepository.in(this.dataSource).chainActive(agentId);
  }
}
