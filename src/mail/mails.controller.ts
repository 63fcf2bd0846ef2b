import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { PageQuery } from '../common/paging';
import { PROJECT_ID_PIPE, UuidParamPipe } from '../common/uuid-param.pipe';
import { ErrorCode } from '../core/errors/error-code';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ApiAnswer, ApiFailures, ApiPageAnswer } from '../http/openapi/api-contract';
import { MailView } from './mail.view';
import { MailsService } from './mails.service';

const MAIL_ID = new UuidParamPipe(ErrorCode.MAIL_NOT_FOUND);

@ApiTags('admin: mail')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/mails')
export class MailsController {
  constructor(private readonly mails: MailsService) {}

  @Get()
  @ApiOperation({ summary: "The project's mail log, newest first, each mail with its attempts (SMTP reply, error, duration)" })
  @ApiPageAnswer(MailView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: PageQuery) {
    return this.mails.list(actor, id, query);
  }

  @Post(':mailId/resend')
  @ApiOperation({ summary: 'Send a mail again now, whatever its state' })
  @ApiAnswer(MailView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.MAIL_NOT_FOUND)
  @HttpCode(200)
  resend(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('mailId', MAIL_ID) mailId: string,
  ) {
    return this.mails.resend(actor, id, mailId);
  }
}
