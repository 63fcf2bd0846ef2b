import { DataSource, EntityManager } from 'typeorm';
import { AdminUser } from '../admin-kernel/admin-user.entity';
import { AgentProject } from './agent-project.entity';
import { Agent } from './agent.entity';

/** An agent's row with its account and projects, as the views and the rules read it. */
export interface AgentRow {
  id: string;
  username: string;
  status: 'active' | 'disabled';
  ownerId: string;
  parentAgentId: string | null;
  level: number;
  projectIds: string[];
  discountPercent: number;
  canCreateSubAgents: boolean;
  canBan: boolean;
  canUnbind: boolean;
  balanceCents: number;
  lowBalanceCents: number | null;
  createdAt: Date;
}

/** Which agents a list shows: all of them by default, each condition narrowing it. */
export interface AgentFilter {
  ownerId?: string;
  /** The agents under this one (children, grandchildren). */
  below?: string;
  parentAgentId?: string;
  /** Part of the username, any case. */
  usernameContains?: string;
}

export type AgentTerms = Pick<Agent, 'discountPercent' | 'canCreateSubAgents' | 'canBan' | 'canUnbind'> & {
  /** Left as it is when undefined. */
  lowBalanceCents?: number | null;
};

const SELECT_AGENTS = `
  SELECT a.id, u.username, u.status, a.owner_id, a.parent_agent_id, a.level, a.discount_percent, a.can_create_sub_agents, a.can_ban,
    a.can_unbind, a.balance_cents, a.low_balance_cents, a.created_at,
    coalesce((SELECT array_agg(p.project_id::text ORDER BY p.project_id) FROM agent_projects p WHERE p.agent_id = a.id), '{}'::text[]) AS project_ids
  FROM agents a JOIN admin_users u ON u.id = a.id`;

/** The agents under `$n` (children, grandchildren), by id: an agent's sub-agents. */
const descendants = (param: string) => `
  WITH RECURSIVE tree AS (
    SELECT id FROM agents WHERE parent_agent_id = ${param}
    UNION ALL SELECT a.id FROM agents a JOIN tree t ON a.parent_agent_id = t.id
  ) SELECT id FROM tree`;

/** The agents (`agents`, their `admin_users` accounts, `agent_projects`): made per use with `in`, on the data source or a transaction's manager. */
export class AgentsRepository {
  constructor(private readonly em: EntityManager) {}

  static in(db: EntityManager | DataSource): AgentsRepository {
    return new AgentsRepository(db instanceof EntityManager ? db : db.manager);
  }

  /**
   * Whether the agent, every agent above it and the author it sells for are all active. Raw: a
   * recursive walk up the agent tree to its author, one statement (TypeORM has no recursive CTE).
   */
  async chainActive(agentId: string): Promise<boolean> {
    const [row] = (await this.em.query(
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

  async byId(id: string): Promise<AgentRow | null> {
    const [row] = await this.select('a.id = $1', [id]);
    return row ?? null;
  }

  /** A page of the agents matching `filter`, in creation order, and how many match. */
  async page(filter: AgentFilter, skip: number, take: number): Promise<[AgentRow[], number]> {
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const conditions: string[] = [];
    if (filter.ownerId) conditions.push(`a.owner_id = ${param(filter.ownerId)}`);
    if (filter.below) conditions.push(`a.id IN (${descendants(param(filter.below))})`);
    if (filter.parentAgentId) conditions.push(`a.parent_agent_id = ${param(filter.parentAgentId)}`);
    if (filter.usernameContains)
      conditions.push(`u.username ILIKE ${param(`%${filter.usernameContains.replace(/[\\%_]/g, '\\$&')}%`)}`);
    const where = conditions.length ? conditions.join(' AND ') : 'true';
    const [rows, [{ total }]] = await Promise.all([
      this.select(where, params, ` LIMIT ${Number(take)} OFFSET ${Number(skip)}`),
      // Raw: the count of the page's recursive WHERE, over agents and their accounts.
      this.em.query(
        `SELECT count(*)::int AS total FROM agents a JOIN admin_users u ON u.id = a.id WHERE ${where}`,
        params,
      ) as Promise<Array<{ total: number }>>,
    ]);
    return [rows, total];
  }

  /** The agent's parent, null for a first-level agent or none. */
  async parentOf(id: string): Promise<string | null> {
    const agent = await this.em.findOne(Agent, { select: { id: true, parentAgentId: true }, where: { id } });
    return agent?.parentAgentId ?? null;
  }

  /** Its account (role agent, active) and its row; answers its id. A taken username fails on the unique index. */
  async create(
    account: { username: string; passwordHash: string },
    agent: Pick<Agent, 'ownerId' | 'parentAgentId' | 'level' | 'lowBalanceCents'> & AgentTerms,
    projectIds: string[],
  ): Promise<string> {
    const { identifiers } = await this.em.insert(AdminUser, { ...account, role: 'agent', status: 'active' });
    const id = identifiers[0].id as string;
    await this.em.insert(Agent, { id, ...agent });
    await this.addProjects(id, projectIds);
    return id;
  }

  async setTerms(id: string, terms: AgentTerms): Promise<void> {
    const { lowBalanceCents, ...always } = terms;
    await this.em.update(Agent, id, lowBalanceCents === undefined ? always : { ...always, lowBalanceCents });
  }

  async replaceProjects(id: string, projectIds: string[]): Promise<void> {
    await this.em.delete(AgentProject, { agentId: id });
    await this.addProjects(id, projectIds);
  }

  /** Changes what is given of its account's status and password (updated_at with them). */
  async setAccount(id: string, account: Partial<Pick<AdminUser, 'status' | 'passwordHash'>>): Promise<void> {
    await this.em.update(AdminUser, id, account);
  }

  private async addProjects(agentId: string, projectIds: string[]): Promise<void> {
    if (projectIds.length)
      await this.em.insert(
        AgentProject,
        projectIds.map((projectId) => ({ agentId, projectId })),
      );
  }

  /** Agents matching a SQL condition on `a` (agents) and `u` (their accounts), in creation order. */
  private async select(where: string, params: unknown[], limit = ''): Promise<AgentRow[]> {
    // Raw: agents joined with their accounts and the array of their projects, under a WHERE that may hold a recursive CTE.
    const rows = (await this.em.query(`${SELECT_AGENTS} WHERE ${where} ORDER BY a.created_at, a.id${limit}`, params)) as Array<
      Record<string, unknown>
    >;
    return rows.map(rowOf);
  }
}

function rowOf(r: Record<string, unknown>): AgentRow {
  return {
    id: r.id as string,
    username: r.username as string,
    status: r.status as AgentRow['status'],
    ownerId: r.owner_id as string,
    parentAgentId: (r.parent_agent_id as string | null) ?? null,
    level: Number(r.level),
    projectIds: (r.project_ids as string[]) ?? [],
    discountPercent: Number(r.discount_percent),
    canCreateSubAgents: r.can_create_sub_agents as boolean,
    canBan: r.can_ban as boolean,
    canUnbind: r.can_unbind as boolean,
    balanceCents: Number(r.balance_cents),
    lowBalanceCents: r.low_balance_cents === null ? null : Number(r.low_balance_cents),
    createdAt: new Date(r.created_at as string),
  };
}
