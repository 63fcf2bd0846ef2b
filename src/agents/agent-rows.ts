import { DataSource, EntityManager } from 'typeorm';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { AgentView } from './agent.view';
import { AgentRow, AgentsRepository } from './agents.repository';

export type { AgentRow } from './agents.repository';

/** Where an agent is read: the service's data source, or a transaction's manager. */
type Db = EntityManager | DataSource;

export function agentById(db: Db, id: string): Promise<AgentRow | null> {
  return AgentsRepository.in(db).byId(id);
}

/** The calling agent's own row: its token is valid, so the row exists unless it was just removed. */
export async function selfAgent(db: Db, actor: AdminPrincipal): Promise<AgentRow> {
  const row = actor.role === 'agent' ? await agentById(db, actor.id) : null;
  if (!row) throw new ServiceError(ErrorCode.FORBIDDEN);
  return row;
}

/**
 * The agent `id` if `actor` may see it: a platform admin any, an author its own agents, an agent
 * itself and its sub-agents; else AGENT_NOT_FOUND, as for an id that is none.
 */
export async function visibleAgent(db: Db, actor: AdminPrincipal, id: string): Promise<AgentRow> {
  const row = await agentById(db, id);
  if (!row || !(await mayView(db, actor, row))) throw new ServiceError(ErrorCode.AGENT_NOT_FOUND);
  return row;
}

async function mayView(db: Db, actor: AdminPrincipal, row: AgentRow): Promise<boolean> {
  if (actor.role === 'platform_admin') return true;
  if (actor.role === 'author') return row.ownerId === actor.id;
  return row.id === actor.id || (await isAncestor(db, actor.id, row));
}

/** Whether `ancestorId` is above `row` (its parent, or its parent's parent). */
export async function isAncestor(db: Db, ancestorId: string, row: AgentRow): Promise<boolean> {
  if (row.parentAgentId === null) return false;
  if (row.parentAgentId === ancestorId) return true;
  return (await AgentsRepository.in(db).parentOf(row.parentAgentId)) === ancestorId;
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
