import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { AccountSessions } from '../admin-kernel/admin-checks';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { noteChange } from '../common/audit-note';
import { Project } from '../projects/project.entity';
import { Page, PageQuery, pageOf } from '../common/paging';
import { hashPassword } from '../core/crypto/passwords';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { isUniqueViolation } from '../database/pg-errors';
import { StatsQuery } from '../login-logs/login-log.dto';
import { statsWindow } from '../login-logs/login-logs.service';
import { SalesCountsRepository } from '../sales/sales-counts.repository';
import { CreateAgentDto, CreditDto, ListAgentsQuery, UpdateAgentDto } from './agent.dto';
import { AgentView, LedgerEntryView } from './agent.view';
import { AgentLedgerRepository } from './agent-ledger.repository';
import { agentById, selfAgent, toAgentView, visibleAgent } from './agent-rows';
import { AgentRow, AgentsRepository } from './agents.repository';
import { changeBalance, lockBalances } from './ledger';

/** Agents go this deep at most (decisions §19): an author's agent, its sub-agent, and theirs. */
export const MAX_AGENT_LEVEL = 3;

type Rights = Pick<CreateAgentDto, 'project_ids' | 'discount_percent' | 'can_create_sub_agents' | 'can_ban' | 'can_unbind'>;

/** Agents (resellers) and their balances, as authors and agents manage them (decisions §19). */
@Injectable()
export class AgentsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: AccountSessions,
  ) {}

  /**
   * An author makes first-level agents (or sub-agents of its own agents); an agent with
   * `can_create_sub_agents` makes its own sub-agents, within its projects, discount and rights.
   */
  async create(actor: AdminPrincipal, input: CreateAgentDto): Promise<AgentView> {
    let parent: AgentRow | null = null;
    if (actor.role === 'agent') {
      parent = await selfAgent(this.dataSource, actor);
      if (!parent.canCreateSubAgents) throw new ServiceError(ErrorCode.FORBIDDEN, 'This agent may not create sub-agents');
      if (input.parent_agent_id !== undefined && input.parent_agent_id !== actor.id) {
        throw new ServiceError(ErrorCode.AGENT_SCOPE_EXCEEDED, undefined, {
          details: ['parent_agent_id: an agent creates its own sub-agents only'],
        });
      }
    } else if (input.parent_agent_id !== undefined) {
      parent = await agentById(this.dataSource, input.parent_agent_id);
      if (!parent || parent.ownerId !== actor.id)
        throw new ServiceError(ErrorCode.AGENT_NOT_FOUND, undefined, { details: ['parent_agent_id'] });
    }
    const ownerId = parent ? parent.ownerId : actor.id;
    if (parent && parent.level >= MAX_AGENT_LEVEL) {
      throw new ServiceError(ErrorCode.AGENT_LEVELS_EXCEEDED, undefined, {
        details: [`parent_agent_id: that agent is at level ${parent.level}`],
      });
    }
    await this.checkRights(ownerId, parent, input);
    const passwordHash = await hashPassword(input.password);
    try {
      const id = await this.dataSource.transaction((em) =>
        AgentsRepository.in(em).create(
          { username: input.username, passwordHash },
          {
            ownerId,
            parentAgentId: parent?.id ?? null,
            level: parent ? parent.level + 1 : 1,
            discountPercent: input.discount_percent,
            canCreateSubAgents: input.can_create_sub_agents ?? false,
            canBan: input.can_ban ?? false,
            canUnbind: input.can_unbind ?? false,
            lowBalanceCents: input.low_balance_cents ?? null,
          },
          input.project_ids,
        ),
      );
      return toAgentView((await agentById(this.dataSource, id))!);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ServiceError(ErrorCode.AUTHOR_USERNAME_TAKEN, undefined, { details: ['username'] });
      throw error;
    }
  }

  /** A platform admin sees every agent, an author its own, an agent its sub-agents (all levels below it). */
  async list(actor: AdminPrincipal, query: ListAgentsQuery): Promise<Page<AgentView>> {
    const [items, total] = await AgentsRepository.in(this.dataSource).page(
      {
        ownerId: actor.role === 'author' ? actor.id : undefined,
        below: actor.role === 'agent' ? actor.id : undefined,
        parentAgentId: query.parent_agent_id,
        usernameContains: query.q,
      },
      query.skip,
      query.page_size,
    );
    return pageOf(items.map(toAgentView), total, query);
  }

  async get(actor: AdminPrincipal, id: string): Promise<AgentView> {
    return toAgentView(await visibleAgent(this.dataSource, actor, id));
  }

  async me(actor: AdminPrincipal): Promise<AgentView> {
    return toAgentView(await selfAgent(this.dataSource, actor));
  }

  /** Its author (or a platform admin) or an agent above it changes an agent; never the agent itself. */
  async update(actor: AdminPrincipal, id: string, input: UpdateAgentDto): Promise<AgentView> {
    const before = await visibleAgent(this.dataSource, actor, id);
    if (actor.role === 'agent' && before.id === actor.id)
      throw new ServiceError(ErrorCode.FORBIDDEN, 'An agent cannot change its own terms');
    const parent = before.parentAgentId ? await agentById(this.dataSource, before.parentAgentId) : null;
    const rights: Required<Rights> = {
      project_ids: input.project_ids ?? before.projectIds,
      discount_percent: input.discount_percent ?? before.discountPercent,
      can_create_sub_agents: input.can_create_sub_agents ?? before.canCreateSubAgents,
      can_ban: input.can_ban ?? before.canBan,
      can_unbind: input.can_unbind ?? before.canUnbind,
    };
    await this.checkRights(before.ownerId, parent, rights);
    const passwordHash = input.password !== undefined ? await hashPassword(input.password) : undefined;
    await this.dataSource.transaction(async (em) => {
      const agents = AgentsRepository.in(em);
      await agents.setTerms(id, {
        discountPercent: rights.discount_percent,
        canCreateSubAgents: rights.can_create_sub_agents,
        canBan: rights.can_ban,
        canUnbind: rights.can_unbind,
        lowBalanceCents: input.low_balance_cents,
      });
      if (input.project_ids) await agents.replaceProjects(id, input.project_ids);
      if (input.status !== undefined || passwordHash !== undefined)
        await agents.setAccount(id, {
          ...(input.status !== undefined && { status: input.status }),
          ...(passwordHash !== undefined && { passwordHash }),
        });
    });
    // A disabled agent or a new password ends its sessions at once; a new password also revokes its API keys.
    if (passwordHash !== undefined) await this.sessions.revokeAfterPasswordReset(id);
    else if (input.status === 'disabled') await this.sessions.revokeAll(id);
    const after = toAgentView((await agentById(this.dataSource, id))!);
    noteChange(actor, {
      before: toAgentView(before),
      after: passwordHash !== undefined ? { ...after, password: 'changed' } : after,
    });
    return after;
  }

  /** Newest first. */
  async ledger(actor: AdminPrincipal, id: string, query: PageQuery): Promise<Page<LedgerEntryView>> {
    const agent = await visibleAgent(this.dataSource, actor, id);
    const [entries, total] = await AgentLedgerRepository.in(this.dataSource).page(agent.id, query.skip, query.page_size);
    const items = entries.map((e) => ({
      id: Number(e.id),
      kind: e.kind,
      amount_cents: e.amountCents,
      balance_after_cents: e.balanceAfterCents,
      order_id: e.orderReference,
      batch_id: e.batchId,
      note: e.note,
      actor_id: e.actorId,
      created_at: e.createdAt.toISOString(),
    }));
    return pageOf(items, total, query);
  }

  /**
   * Money in (or, from the author, out): the author's credit comes from outside, a negative amount
   * is a debit refused below zero; a parent agent's credit is paid from the parent's balance in the
   * same transaction (a debit of the parent, a credit of the child, both entries or neither).
   */
  async credit(actor: AdminPrincipal, id: string, input: CreditDto): Promise<AgentView> {
    if (input.amount_cents === 0)
      throw new ServiceError(ErrorCode.BAD_REQUEST, undefined, { details: ['amount_cents must not be 0'] });
    const agent = await visibleAgent(this.dataSource, actor, id);
    const note = input.note ?? null;
    if (actor.role === 'agent') {
      if (agent.parentAgentId !== actor.id) throw new ServiceError(ErrorCode.FORBIDDEN, 'Only the parent agent credits an agent');
      if (input.amount_cents < 0) throw new ServiceError(ErrorCode.FORBIDDEN, 'Only the author debits an agent');
      await this.dataSource.transaction(async (em) => {
        await lockBalances(em, [actor.id, agent.id]);
        await changeBalance(em, {
          agentId: actor.id,
          kind: 'debit',
          cents: input.amount_cents,
          actorId: actor.id,
          note: note ?? `credit to ${agent.username}`,
        });
        await changeBalance(em, { agentId: agent.id, kind: 'credit', cents: input.amount_cents, actorId: actor.id, note });
      });
    } else {
      const kind = input.amount_cents > 0 ? 'credit' : 'debit';
      await this.dataSource.transaction((em) =>
        changeBalance(em, { agentId: agent.id, kind, cents: Math.abs(input.amount_cents), actorId: actor.id, note }),
      );
    }
    return toAgentView((await agentById(this.dataSource, id))!);
  }

  /** A first-level agent sells for projects of its author; a sub-agent within its parent's projects, discount and rights. */
  private async checkRights(ownerId: string, parent: AgentRow | null, input: Rights): Promise<void> {
    const problems: string[] = [];
    const allowed = parent
      ? new Set(parent.projectIds)
      : new Set(
          (
            await this.dataSource
              .getRepository(Project)
              .find({ select: { id: true }, where: { ownerId, id: In(input.project_ids) } })
          ).map((p) => p.id),
        );
    const outside = input.project_ids.filter((p) => !allowed.has(p));
    if (outside.length)
      problems.push(`project_ids: ${outside.join(', ')} ${parent ? "not among the parent's projects" : 'not your projects'}`);
    if (parent) {
      if (input.discount_percent > parent.discountPercent)
        problems.push(`discount_percent: at most the parent's ${parent.discountPercent}`);
      if (input.can_ban && !parent.canBan) problems.push('can_ban: the parent may not ban');
      if (input.can_unbind && !parent.canUnbind) problems.push('can_unbind: the parent may not unbind');
      if (input.can_create_sub_agents && parent.level + 1 >= MAX_AGENT_LEVEL)
        problems.push('can_create_sub_agents: a third-level agent has no sub-agents');
    }
    if (problems.length) throw new ServiceError(ErrorCode.AGENT_SCOPE_EXCEEDED, problems[0], { details: problems });
  }

  /** An agent's sales between two local days of the query's window (`today`: the service's date), from the counters. */
  async sales(actor: AdminPrincipal, id: string, query: StatsQuery, today: string) {
    const agent = await visibleAgent(this.dataSource, actor, id);
    const { from, to } = statsWindow(query, today);
    return { from, to, items: await SalesCountsRepository.in(this.dataSource).items({ agentIds: [agent.id] }, from, to) };
  }
}
