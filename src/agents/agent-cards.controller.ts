import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Query } from '@nestjs/common';
import {
  ApiOperation,
  ApiProduces,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  ApiTags,
  IntersectionType,
} from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { AdminAuth, AdminRoles, AgentScope } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { ExportCardsQuery, ListCardsQuery } from '../cards/admin/card-queries.dto';
import { CardView } from '../cards/admin/card.view';
import { IntIdParamPipe } from '../common/int-id-param.pipe';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiListAnswer, ApiNoContent, ApiPageAnswer } from '../http/openapi/api-contract';
import { AgentCardTypeView } from './agent.view';
import { AgentCardsService } from './agent-cards.service';

const CARD_ID_PIPE = new IntIdParamPipe(ErrorCode.CARD_NOT_FOUND);

class AgentProjectFilter {
  @ApiPropertyOptional({ format: 'uuid', description: 'only the cards of this project' })
  @IsOptional()
  @IsUUID()
  project_id?: string;
}
class AgentCardsQuery extends IntersectionType(ListCardsQuery, AgentProjectFilter) {}
class AgentExportQuery extends IntersectionType(ExportCardsQuery, AgentProjectFilter) {}

class AgentCardStatusDto {
  @ApiProperty({ enum: ['banned', 'active'] })
  @IsIn(['banned', 'active'])
  status: 'banned' | 'active';
}

/** An agent's own view of what it sells (decisions §19); every route answers for the signed-in agent only. */
@ApiTags('admin: agents')
@Envelope('admin')
@AdminAuth()
@AgentScope()
@AdminRoles('agent')
@Controller('admin/v1/agents/me')
export class AgentCardsController {
  constructor(private readonly cards: AgentCardsService) {}

  @Get('card-types')
  @ApiOperation({ summary: 'The card types the agent may sell, in all its projects, with its own price' })
  @ApiListAnswer(AgentCardTypeView)
  async cardTypes(@CurrentAdmin() actor: AdminPrincipal) {
    const items = await this.cards.cardTypes(actor);
    return { items, total: items.length };
  }

  @Get('cards')
  @ApiOperation({ summary: "The agent's cards (made by its orders), filtered and paged like a project's" })
  @ApiPageAnswer(CardView)
  list(@CurrentAdmin() actor: AdminPrincipal, @Query() query: AgentCardsQuery) {
    return this.cards.list(actor, query);
  }

  @Get('cards/export.csv')
  @Header('Content-Type', 'text/csv; charset=utf-8')
  @Header('Content-Disposition', 'attachment; filename="cards.csv"')
  @ApiProduces('text/csv')
  @ApiOperation({ summary: "Export the agent's cards a filter matches as CSV (the project export's columns)" })
  @ApiResponse({ status: 200, description: 'CSV with a header row', content: { 'text/csv': { schema: { type: 'string' } } } })
  exportCsv(@CurrentAdmin() actor: AdminPrincipal, @Query() query: AgentExportQuery) {
    return this.cards.exportCsv(actor, query);
  }

  @Patch('cards/:cardId')
  @ApiOperation({ summary: 'Ban or unban one of its cards (can_ban)' })
  @ApiAnswer(CardView)
  @ApiFailures(ErrorCode.CARD_NOT_FOUND, ErrorCode.FORBIDDEN)
  setStatus(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('cardId', CARD_ID_PIPE) cardId: number,
    @Body() body: AgentCardStatusDto,
  ) {
    return this.cards.setStatus(actor, cardId, body.status);
  }

  @Delete('cards/:cardId/devices/:machine')
  @HttpCode(204)
  @ApiOperation({ summary: 'Unbind a device from one of its cards (can_unbind)' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.CARD_NOT_FOUND, ErrorCode.CARD_DEVICE_NOT_FOUND, ErrorCode.FORBIDDEN)
  async unbind(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('cardId', CARD_ID_PIPE) cardId: number,
    @Param('machine') machine: string,
  ): Promise<void> {
    await this.cards.unbind(actor, cardId, machine);
  }
}
