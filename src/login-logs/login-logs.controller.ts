import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { PROJECT_ID_PIPE } from '../common/uuid-param.pipe';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiPageAnswer } from '../http/openapi/api-contract';
import { LoginLogView, StatsView } from './login-log.view';
import { ListLoginLogsQuery, LoginStatsQuery } from './login-log.dto';
import { LoginLogsService } from './login-logs.service';

@ApiTags('admin: login log')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id')
export class LoginLogsController {
  constructor(private readonly logs: LoginLogsService) {}

  @Get('logs')
  @ApiOperation({ summary: 'Search the login log (by card, device, result, family, request id, time)' })
  @ApiPageAnswer(LoginLogView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: ListLoginLogsQuery) {
    return this.logs.list(actor, id, query);
  }

  @Get('stats')
  @ApiOperation({ summary: 'Count login attempts per local day (of APP_TIMEZONE or the tz asked), interface and result' })
  @ApiAnswer(StatsView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  stats(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: LoginStatsQuery) {
    return this.logs.stats(actor, id, query);
  }
}
