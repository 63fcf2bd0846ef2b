import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { PROJECT_ID_PIPE } from '../common/uuid-param.pipe';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiPageAnswer } from '../http/openapi/api-contract';
import { ListRequestsQuery } from './request-log.dto';
import { RequestLogService } from './request-log.service';
import { RequestExplainedView, RequestLogView } from './request-log.view';

@ApiTags('admin: login log')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/requests')
export class RequestLogController {
  constructor(private readonly requests: RequestLogService) {}

  @Get()
  @ApiOperation({ summary: 'Search the request log (by request id, card, device, address, result, family, time)' })
  @ApiPageAnswer(RequestLogView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: ListRequestsQuery) {
    return this.requests.list(actor, id, query);
  }

  @Get(':requestId')
  @ApiOperation({ summary: 'One request of the log, with which rule decided it (explain)' })
  @ApiAnswer(RequestExplainedView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.NOT_FOUND)
  get(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Param('requestId') requestId: string) {
    return this.requests.get(actor, id, requestId);
  }
}
