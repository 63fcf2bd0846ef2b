import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth, AgentScope } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { IntIdParamPipe } from '../common/int-id-param.pipe';
import { UuidParamPipe } from '../common/uuid-param.pipe';
import { ErrorCode } from '../core/errors/error-code';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ApiAnswer, ApiFailures, ApiListAnswer, ApiNoContent } from '../http/openapi/api-contract';
import { AgentPriceView, SetAgentPriceDto } from './agent-price.dto';
import { AgentPricesService } from './agent-prices.service';

const AGENT_ID_PIPE = new UuidParamPipe(ErrorCode.AGENT_NOT_FOUND);
const TYPE_ID_PIPE = new IntIdParamPipe(ErrorCode.CARD_TYPE_NOT_FOUND);

/**
 * An agent's own price per card type, instead of its discount for that type (docs/commerce.md).
 * Read by whoever may read the agent; set and removed by whoever may change its terms.
 */
@ApiTags('admin: agents')
@Envelope('admin')
@AdminAuth()
@AgentScope()
@Controller('admin/v1/agents/:id/prices')
export class AgentPricesController {
  constructor(private readonly prices: AgentPricesService) {}

  @Get()
  @ApiOperation({ summary: 'The card types an agent may sell, each with its list, discounted, own and effective price' })
  @ApiListAnswer(AgentPriceView)
  @ApiFailures(ErrorCode.AGENT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', AGENT_ID_PIPE) id: string) {
    return this.prices.list(actor, id);
  }

  @Put(':typeId')
  @ApiOperation({ summary: "Set an agent's own price for a card type (its author, or an agent above it)" })
  @ApiAnswer(AgentPriceView)
  @ApiFailures(ErrorCode.AGENT_NOT_FOUND, ErrorCode.CARD_TYPE_NOT_FOUND, ErrorCode.AGENT_SCOPE_EXCEEDED, ErrorCode.FORBIDDEN)
  set(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', AGENT_ID_PIPE) id: string,
    @Param('typeId', TYPE_ID_PIPE) typeId: number,
    @Body() body: SetAgentPriceDto,
  ) {
    return this.prices.set(actor, id, typeId, body);
  }

  @Delete(':typeId')
  @HttpCode(204)
  @ApiOperation({ summary: "Remove an agent's own price for a card type: its discount applies again" })
  @ApiNoContent()
  @ApiFailures(ErrorCode.AGENT_NOT_FOUND, ErrorCode.CARD_TYPE_NOT_FOUND, ErrorCode.FORBIDDEN)
  remove(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', AGENT_ID_PIPE) id: string,
    @Param('typeId', TYPE_ID_PIPE) typeId: number,
  ) {
    return this.prices.remove(actor, id, typeId);
  }
}
