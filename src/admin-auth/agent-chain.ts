import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * An agent acts only while it, every agent above it and the author it sells for are all active:
 * disabling an author or a parent agent stops the whole tree under it (sign-in, tokens, API keys,
 * orders), without touching the agents' own accounts, so enabling it again restores them.
 */
@Injectable()
export class AgentChain {
  constructor(private readonly dataSource: DataSource) {}

  async active(agentId: string): Promise<boolean> {
    // Raw: a recursive walk up the agent tree to its author, one statement (TypeORM has no recursive CTE).
    const [row] = (await this.dataSource.query(
      `WITH RECURSIVE chain AS (
        SELECT id, parent_agent_id, owner_id FROM agents WHERE id = $1
        UNION ALL SELECT a.id, a.parent_agent_id, a.owner_id FROM agents a JOIN chain c ON a.id = c.parent_agent_id
      )
      SELECT EXISTS (SELECT 1 FROM chain) AND NOT EXISTS (
        SELECT 1 FROM chain c JOIN admin_users u ON u.id IN (c.id, c.owner_id) WHERE u.status <> 'active'
      ) AS active`,
      [agentId],
    )) as Array<{ active: boolean }>;
    return row?.active === true;
  }
}
