import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../../admin-kernel/admin-principal';
import { IntIdParamPipe } from '../../common/int-id-param.pipe';
import { PROJECT_ID_PIPE } from '../../common/uuid-param.pipe';
import { Envelope } from '../../http/envelope/envelope.decorator';
import { ErrorCode } from '../../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiNoContent, ApiPageAnswer } from '../../http/openapi/api-contract';
import { BlacklistView } from './verify.view';
import { CreateBlacklistEntryDto, ListBlacklistQuery } from './blacklist.dto';
import { BlacklistService } from './blacklist.service';

const ENTRY_ID_PIPE = new IntIdParamPipe(ErrorCode.BLACKLIST_ENTRY_NOT_FOUND);

@ApiTags('admin: licence verification')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/blacklist')
export class BlacklistController {
  constructor(private readonly blacklist: BlacklistService) {}

  @Post()
  @ApiOperation({ summary: 'Blacklist a domain or an IP for licence verification' })
  @ApiAnswer(BlacklistView, { status: 201 })
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.BLACKLIST_ENTRY_EXISTS)
  create(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: CreateBlacklistEntryDto) {
    return this.blacklist.create(actor, id, body);
  }

  @Get()
  @ApiOperation({ summary: 'List the blacklist of a project' })
  @ApiPageAnswer(BlacklistView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: ListBlacklistQuery) {
    return this.blacklist.list(actor, id, query);
  }

  @Delete(':entryId')
  @ApiOperation({ summary: 'Remove a blacklist entry' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.BLACKLIST_ENTRY_NOT_FOUND)
  @HttpCode(204)
  async remove(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('entryId', ENTRY_ID_PIPE) entryId: number,
  ): Promise<void> {
    await this.blacklist.remove(actor, id, entryId);
  }
}
