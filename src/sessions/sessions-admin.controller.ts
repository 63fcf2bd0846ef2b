import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { AdminAuth } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { MAX_INT32 } from '../common/limits';
import { PROJECT_ID_PIPE } from '../common/uuid-param.pipe';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiPageAnswer } from '../http/openapi/api-contract';
import { ProjectAccess } from '../projects/project-access';
import { ListSessionsQuery, LiveSessionView } from './live-session.view';
import { LiveSessions } from './live-sessions';
import { SessionRevocations } from './session-revocations';

export class RevokeSessionsDto {
  @ApiPropertyOptional({ description: 'end the sessions of this card' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INT32)
  card_id?: number;

  @ApiPropertyOptional({ description: 'end the sessions of this program user' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INT32)
  user_id?: number;
}

@ApiTags('admin: sessions')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/sessions')
export class SessionsAdminController {
  constructor(
    private readonly sessions: SessionRevocations,
    private readonly live: LiveSessions,
    private readonly access: ProjectAccess,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the live SDK sessions of a project (not revoked, not expired), newest first' })
  @ApiPageAnswer(LiveSessionView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  async list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: ListSessionsQuery) {
    const project = await this.access.find(actor, id);
    return this.live.list(project.id, query);
  }

  /** Forced offline: a card's, a user's, or (with neither) every session of the project. */
  @Post('revoke')
  @ApiOperation({ summary: "Force sessions offline: a card's, a program user's, or every session of the project" })
  @ApiAnswer({
    type: 'object',
    required: ['revoked'],
    properties: { revoked: { type: 'integer', description: 'live sessions ended' } },
  })
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  @HttpCode(200)
  async revoke(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: RevokeSessionsDto) {
    const project = await this.access.find(actor, id);
    return {
      revoked: await this.sessions.revokeWhere(project.id, { cardId: body.card_id, userId: body.user_id }, 'forced_offline'),
    };
  }
}
