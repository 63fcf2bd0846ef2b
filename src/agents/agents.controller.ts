import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth, AdminRoles, AgentScope } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { StepUp } from '../admin-kernel/step-up';
import { PageQuery } from '../common/paging';
import { UuidParamPipe } from '../common/uuid-param.pipe';
import { AppConfig } from '../config/app-config';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiPageAnswer } from '../http/openapi/api-contract';
import { StatsQuery } from '../login-logs/login-log.dto';
import { CreateAgentDto, CreditDto, ListAgentsQuery, UpdateAgentDto } from './agent.dto';
import { AgentView, LedgerEntryView, SalesView } from './agent.view';
import { AgentsService } from './agents.service';

const AGENT_ID_PIPE = new UuidParamPipe(ErrorCode.AGENT_NOT_FOUND);

/**
 * Agents (decisions §19). Authors manage their agents; an agent reaches these routes for itself
 * and its sub-agents only (AGENT_NOT_FOUND for any other), and the routes of
 * agent-cards.controller.ts and the project orders for its own sales.
 */
@ApiTags('admin: agents')
@Envelope('admin')
@AdminAuth()
@AgentScope()
@Controller('admin/v1/agents')
export class AgentsController {
  private readonly dayFormat: Intl.DateTimeFormat;

  constructor(
    private readonly agents: AgentsService,
    private readonly config: AppConfig,
  ) {
    this.dayFormat = new Intl.DateTimeFormat('en-CA', {
      timeZone: config.APP_TIMEZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  }

  @Post()
  @AdminRoles('author', 'agent')
  @ApiOperation({
    summary: 'Create an agent (an author) or a sub-agent (an agent with can_create_sub_agents); three levels at most',
  })
  @ApiAnswer(AgentView, { status: 201 })
  @ApiFailures(
    ErrorCode.AUTHOR_USERNAME_TAKEN,
    ErrorCode.AGENT_NOT_FOUND,
    ErrorCode.AGENT_LEVELS_EXCEEDED,
    ErrorCode.AGENT_SCOPE_EXCEEDED,
    ErrorCode.FORBIDDEN,
  )
  create(@CurrentAdmin() actor: AdminPrincipal, @Body() body: CreateAgentDto) {
    return this.agents.create(actor, body);
  }

  @Get()
  @ApiOperation({ summary: 'List agents: a platform admin all, an author its own, an agent its sub-agents' })
  @ApiPageAnswer(AgentView)
  list(@CurrentAdmin() actor: AdminPrincipal, @Query() query: ListAgentsQuery) {
    return this.agents.list(actor, query);
  }

  /** Declared before `:id`. */
  @Get('me')
  @AdminRoles('agent')
  @ApiOperation({ summary: "The signed-in agent's own profile: balance, discount, rights, projects" })
  @ApiAnswer(AgentView)
  me(@CurrentAdmin() actor: AdminPrincipal) {
    return this.agents.me(actor);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read an agent' })
  @ApiAnswer(AgentView)
  @ApiFailures(ErrorCode.AGENT_NOT_FOUND)
  get(@CurrentAdmin() actor: AdminPrincipal, @Param('id', AGENT_ID_PIPE) id: string) {
    return this.agents.get(actor, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: "Change an agent's terms, password or status (its author, or an agent above it)" })
  @ApiAnswer(AgentView)
  @ApiFailures(ErrorCode.AGENT_NOT_FOUND, ErrorCode.AGENT_SCOPE_EXCEEDED, ErrorCode.FORBIDDEN)
  update(@CurrentAdmin() actor: AdminPrincipal, @Param('id', AGENT_ID_PIPE) id: string, @Body() body: UpdateAgentDto) {
    return this.agents.update(actor, id, body);
  }

  @Get(':id/ledger')
  @ApiOperation({ summary: "An agent's ledger, newest first: every balance change with the balance it left" })
  @ApiPageAnswer(LedgerEntryView)
  @ApiFailures(ErrorCode.AGENT_NOT_FOUND)
  ledger(@CurrentAdmin() actor: AdminPrincipal, @Param('id', AGENT_ID_PIPE) id: string, @Query() query: PageQuery) {
    return this.agents.ledger(actor, id, query);
  }

  /** Its author (or a platform admin): any amount, negative = a debit; its parent agent: a positive amount, paid from the parent's balance. */
  @Post(':id/credits')
  @HttpCode(200)
  @StepUp()
  @ApiOperation({ summary: "Credit (or, by the author, debit) an agent's balance; answers the agent" })
  @ApiAnswer(AgentView)
  @ApiFailures(ErrorCode.AGENT_NOT_FOUND, ErrorCode.INSUFFICIENT_BALANCE, ErrorCode.FORBIDDEN)
  credit(@CurrentAdmin() actor: AdminPrincipal, @Param('id', AGENT_ID_PIPE) id: string, @Body() body: CreditDto) {
    return this.agents.credit(actor, id, body);
  }

  @Get(':id/sales')
  @ApiOperation({ summary: "An agent's sales per day, project and card type (sold, activated, revenue), from counters" })
  @ApiAnswer(SalesView)
  @ApiFailures(ErrorCode.AGENT_NOT_FOUND)
  async sales(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', AGENT_ID_PIPE) id: string,
    @Query() query: StatsQuery,
  ): Promise<SalesView> {
    const sales = await this.agents.sales(actor, id, query, this.dayFormat.format(new Date()));
    return { ...sales, time_zone: this.config.APP_TIMEZONE };
  }
}
