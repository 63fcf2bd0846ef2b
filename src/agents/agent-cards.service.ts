import { Injectable, StreamableFile } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { CardsAdminService } from '../cards/admin/cards-admin.service';
import { CardFilters, ListCardsQuery } from '../cards/admin/card-queries.dto';
import { applyCardFilters, orderCards } from '../cards/admin/card-filters';
import { streamCardsCsv } from '../cards/admin/cards-csv-stream';
import { JsonLogger } from '../core/logging/json-logger';
import { ReplicaReads } from '../database/replica-reads';
import { CardView, toCardViews } from '../cards/admin/card.view';
import { CardDevice } from '../cards/card-device.entity';
import { Card } from '../cards/card.entity';
import { CardType } from '../cards/types/card-type.entity';
import { Page, pageOf } from '../common/paging';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { Project } from '../projects/project.entity';
import { AgentCardTypeView } from './agent.view';
import { AgentPricesRepository } from './agent-prices.repository';
import { AgentRow, selfAgent, unitPrice } from './agent-rows';

/** The agent's own corner of the cards (decisions §19): what it may sell, and the cards its orders made. */
@Injectable()
export class AgentCardsService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(Card) private readonly cards: Repository<Card>,
    @InjectRepository(CardDevice) private readonly devices: Repository<CardDevice>,
    @InjectRepository(CardType) private readonly types: Repository<CardType>,
    @InjectRepository(Project) private readonly projects: Repository<Project>,
    private readonly cardsAdmin: CardsAdminService,
    private readonly logger: JsonLogger,
    private readonly replicaReads: ReplicaReads,
    private readonly prices: AgentPricesRepository,
  ) {}

  /** The enabled, agent-allowed card types of its projects, each with its price for this agent. */
  async cardTypes(actor: AdminPrincipal): Promise<AgentCardTypeView[]> {
    const agent = await selfAgent(this.dataSource, actor);
    if (!agent.projectIds.length) return [];
    const [types, projects, own] = await Promise.all([
      this.types.find({
        where: { projectId: In(agent.projectIds), enabled: true, agentAllowed: true },
        order: { projectId: 'ASC', name: 'ASC', id: 'ASC' },
      }),
      this.projects.find({ where: { id: In(agent.projectIds) }, select: { id: true, name: true } }),
      this.prices.ofAgent(agent.id),
    ]);
    const names = new Map(projects.map((p) => [p.id, p.name]));
    return types.map((t) => ({
      id: t.id,
      project_id: t.projectId,
      project_name: names.get(t.projectId) ?? '',
      name: t.name,
      kind: t.kind,
      duration_seconds: t.durationSeconds,
      uses: t.uses,
      device_limit: t.deviceLimit,
      features: t.features,
      price_cents: t.priceCents,
      agent_price_cents: unitPrice(t.priceCents, agent.discountPercent, own.get(t.id)),
    }));
  }

  /** On the read replica when there is one (ReplicaReads). */
  async list(actor: AdminPrincipal, query: ListCardsQuery & { project_id?: string }): Promise<Page<CardView>> {
    const agent = await selfAgent(this.dataSource, actor);
    return this.replicaReads.read(actor.id, async (db) => {
      const [rows, total] = await Promise.all([
        orderCards(this.filtered(agent, query, db), 'c', query.sort)
          .skip(query.skip)
          .take(query.page_size)
          .getMany(),
        this.filtered(agent, query, db).getCount(),
      ]);
      const devices = rows.length
        ? await this.cardsAdmin.devicesOf(
            rows.map((c) => c.id),
            db,
          )
        : [];
      return pageOf(toCardViews(rows, devices), total, query);
    });
  }

  /** The same CSV as the author's export, of the agent's own cards only, streamed page by page (from the replica when there is one). */
  async exportCsv(actor: AdminPrincipal, query: Partial<CardFilters> & { project_id?: string }): Promise<StreamableFile> {
    const agent = await selfAgent(this.dataSource, actor);
    return streamCardsCsv(
      (read) => this.replicaReads.read(actor.id, read),
      (db) => this.filtered(agent, query, db),
      (db, cardIds) => this.cardsAdmin.devicesOf(cardIds, db),
      (error) => this.logger.entry('error', 'agent card export failed part-way', { agent_id: agent.id, error: String(error) }),
    );
  }

  /** Ban or unban one of its cards: only with `can_ban`. */
  async setStatus(actor: AdminPrincipal, cardId: number, status: 'banned' | 'active'): Promise<CardView> {
    const agent = await selfAgent(this.dataSource, actor);
    if (!agent.canBan) throw new ServiceError(ErrorCode.FORBIDDEN, 'This agent may not ban or unban cards');
    return this.cardsAdmin.updateIn(actor, await this.projectOfCard(agent, cardId), cardId, { status });
  }

  /** Unbind a device of one of its cards: only with `can_unbind`. */
  async unbind(actor: AdminPrincipal, cardId: number, machine: string): Promise<void> {
    const agent = await selfAgent(this.dataSource, actor);
    if (!agent.canUnbind) throw new ServiceError(ErrorCode.FORBIDDEN, 'This agent may not unbind devices');
    await this.cardsAdmin.unbindIn(await this.projectOfCard(agent, cardId), cardId, machine);
  }

  /** Its cards in its projects: a card of another agent, or of a project taken from it, is CARD_NOT_FOUND. */
  private filtered(
    agent: AgentRow,
    filters: Partial<CardFilters> & { project_id?: string },
    db: EntityManager = this.cards.manager,
  ) {
    const projectIds = filters.project_id ? agent.projectIds.filter((p) => p === filters.project_id) : agent.projectIds;
    const qb = db
      .getRepository(Card)
      .createQueryBuilder('c')
      .where('c.agent_id = :agentId', { agentId: agent.id })
      .andWhere('c.project_id = ANY(:projectIds::uuid[])', { projectIds });
    return applyCardFilters(qb, 'c', filters);
  }

  private async projectOfCard(agent: AgentRow, cardId: number): Promise<Project> {
    const card = await this.cards.findOne({ where: { id: cardId, agentId: agent.id }, select: { id: true, projectId: true } });
    const project =
      card && agent.projectIds.includes(card.projectId) ? await this.projects.findOneBy({ id: card.projectId }) : null;
    if (!project) throw new ServiceError(ErrorCode.CARD_NOT_FOUND);
    return project;
  }
}
