import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { IntIdParamPipe } from '../common/int-id-param.pipe';
import { PROJECT_ID_PIPE } from '../common/uuid-param.pipe';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiNoContent, ApiPageAnswer } from '../http/openapi/api-contract';
import { CreateLoginBlacklistEntryDto, ListLoginBlacklistQuery, UpdateLoginBlacklistEntryDto } from './login-blacklist.dto';
import { LoginBlacklistService } from './login-blacklist.service';
import { LoginBlacklistView } from './login-blacklist.view';

const ENTRY_ID_PIPE = new IntIdParamPipe(ErrorCode.BLACKLIST_ENTRY_NOT_FOUND);

@ApiTags('admin: login blacklist')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/login-blacklist')
export class LoginBlacklistController {
  constructor(private readonly blacklist: LoginBlacklistService) {}

  @Post()
  @ApiOperation({ summary: 'Refuse a device code or an address / CIDR block on every client family' })
  @ApiAnswer(LoginBlacklistView, { status: 201 })
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.BLACKLIST_ENTRY_EXISTS)
  create(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Body() body: CreateLoginBlacklistEntryDto,
  ) {
    return this.blacklist.create(actor, id, body);
  }

  @Get()
  @ApiOperation({ summary: 'List the login blacklist of a project' })
  @ApiPageAnswer(LoginBlacklistView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: ListLoginBlacklistQuery) {
    return this.blacklist.list(actor, id, query);
  }

  @Patch(':entryId')
  @ApiOperation({ summary: "Change a login-blacklist entry's note or expiry" })
  @ApiAnswer(LoginBlacklistView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.BLACKLIST_ENTRY_NOT_FOUND)
  update(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('entryId', ENTRY_ID_PIPE) entryId: number,
    @Body() body: UpdateLoginBlacklistEntryDto,
  ) {
    return this.blacklist.update(actor, id, entryId, body);
  }

  @Delete(':entryId')
  @ApiOperation({ summary: 'Remove a login-blacklist entry' })
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
