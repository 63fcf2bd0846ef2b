import { EntityManager } from 'typeorm';
import { AdminPrincipal } from '../admin-auth/admin-principal';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { Queryable } from '../events/domain-events';
import { AgentView } from './agent.view';

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

const SELECT_AGENTS = `
  SELECT a.id, u.username, u.status, a.owner_id, a.parent_agent_id, a.level, a.discount_percent, a.can_create_sub_agents, a.can_ban,
    a.can_unbind, a.balance_cents, a.low_balance_cents, a.created_at,
    coalesce((SELECT array_agg(p.project_id::text ORDER BY p.project_id) FROM agent_projects p WHERE p.agent_id = a.id), '{}'::text[]) AS project_ids
  FROM agents a JOIN admin_users u ON u.id = a.id`;

/** The agents under `agentId` (children, grandchildren), by id: an agent's sub-agents. */
export const DESCENDANTS_SQL = `
  WITH RECURSIVE tree AS (
    SELECT id FROM agents WHERE parent_agent_id = $1
    UNION ALL SELECT a.id FROM agents a JOIN tree t ON a.parent_agent_id = t.id
  ) SELECT id FROM tree`;

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

/** Agents matching a SQL condition on `a` (agents) and `u` (their accounts), in creation order. */
export async function selectAgents(
  db: Queryable,
  where: string,
  params: unknown[],
  page?: { skip: number; take: number },
): Promise<AgentRow[]> {
  const limit = page ? ` LIMIT ${Number(page.take)} OFFSET ${Number(page.skip)}` : '';
  // Raw: agents joined with admin_users and their projects (agents has no entity).
  const rows = (await db.query(`${SELECT_AGENTS} WHERE ${where} ORDER BY a.created_at, a.id${limit}`, params)) as Array<
    Record<string, unknown>
  >;
  return rows.map(rowOf);
}

export async function agentById(db: Queryable, id: string): Promise<AgentRow | null> {
  const [row] = await selectAgents(db, 'a.id = $1', [id]);
  return row ?? null;
}

/** The calling agent's own row: its token is valid, so the row exists unless it was just removed. */
export async function selfAgent(db: Queryable, actor: AdminPrincipal): Promise<AgentRow> {
  const row = actor.role === 'agent' ? await agentById(db, actor.id) : null;
  if (!row) throw new ServiceError(ErrorCode.FORBIDDEN);
  return row;
}

/**
 * The agent `id` if `actor` may see it: a platform admin any, an author its own agents, an agent
 * itself and its sub-agents; else AGENT_NOT_FOUND, as for an id that is none.
 */
export async function visibleAgent(db: EntityManager | Queryable, actor: AdminPrincipal, id: string): Promise<AgentRow> {
  const row = await agentById(db, id);
  if (!row || !(await mayView(db, actor, row))) throw new ServiceError(ErrorCode.AGENT_NOT_FOUND);
  return row;
}

async function mayView(db: Queryable, actor: AdminPrincipal, row: AgentRow): Promise<boolean> {
  if (actor.role === 'platform_admin') return true;
  if (actor.role === 'author') return row.ownerId === actor.id;
  return row.id === actor.id || (await isAncestor(db, actor.id, row));
}

/** Whether `ancestorId` is above `row` (its parent, or its parent's parent). */
export async function isAncestor(db: Queryable, ancestorId: string, row: AgentRow): Promise<boolean> {
  if (row.parentAgentId === null) return false;
  if (row.parentAgentId === ancestorId) return true;
  // Raw: agents has no entity.
  const [parent] = (await db.query(`SELECT parent_agent_id FROM agents WHERE id = $1`, [row.parentAgentId])) as Array<{
    parent_agent_id: string | null;
  }>;
  return parent?.parent_agent_id === ancestorId;
}

export function toAgentView(row: AgentRow): AgentView {
  return {
    id: row.id,
    username: row.username,
    status: row.status,
    owner_id: row.ownerId,
    parent_agent_id: row.parentAgentId,
    level: row.level,
    project_ids: row.projectIds,
    discount_percent: row.discountPercent,
    can_create_sub_agents: row.canCreateSubAgents,
    can_ban: row.canBan,
    can_unbind: row.canUnbind,
    balance_cents: row.balanceCents,
    low_balance_cents: row.lowBalanceCents,
    created_at: row.createdAt.toISOString(),
  };
}

/** What one card of a type priced `priceCents` costs an agent with this discount, in whole cents (rounded half up). */
export function agentPrice(priceCents: number, discountPercent: number): number {
  return Math.floor((priceCents * (100 - discountPercent) + 50) / 100);
}

/** What one card costs an agent: its own price for the type when one is set, else the list price less its discount. */
export function unitPrice(priceCents: number, discountPercent: number, ownPrice: number | undefined): number {
  return ownPrice ?? agentPrice(priceCents, discountPercent);
}
