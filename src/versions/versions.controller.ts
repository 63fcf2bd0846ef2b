import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { IntIdParamPipe } from '../common/int-id-param.pipe';
import { PageQuery } from '../common/paging';
import { PROJECT_ID_PIPE } from '../common/uuid-param.pipe';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiNoContent, ApiPageAnswer } from '../http/openapi/api-contract';
import { VersionView } from './version.view';
import { CreateVersionDto, UpdateVersionDto } from './version.dto';
import { VersionsService } from './versions.service';

const VERSION_ID_PIPE = new IntIdParamPipe(ErrorCode.VERSION_NOT_FOUND);

@ApiTags('admin: versions')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/versions')
export class VersionsController {
  constructor(private readonly versions: VersionsService) {}

  @Post()
  @ApiOperation({ summary: 'Publish a version (with an uploaded file or an external address)' })
  @ApiAnswer(VersionView, { status: 201 })
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.VERSION_EXISTS, ErrorCode.FILE_NOT_FOUND)
  create(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: CreateVersionDto) {
    return this.versions.create(actor, id, body);
  }

  @Get()
  @ApiOperation({ summary: 'List the versions of a project' })
  @ApiPageAnswer(VersionView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: PageQuery) {
    return this.versions.list(actor, id, query);
  }

  @Get(':versionId')
  @ApiOperation({ summary: 'Read a version' })
  @ApiAnswer(VersionView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.VERSION_NOT_FOUND)
  get(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('versionId', VERSION_ID_PIPE) versionId: number,
  ) {
    return this.versions.get(actor, id, versionId);
  }

  @Patch(':versionId')
  @ApiOperation({ summary: 'Change a version' })
  @ApiAnswer(VersionView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.VERSION_NOT_FOUND, ErrorCode.VERSION_EXISTS, ErrorCode.FILE_NOT_FOUND)
  update(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('versionId', VERSION_ID_PIPE) versionId: number,
    @Body() body: UpdateVersionDto,
  ) {
    return this.versions.update(actor, id, versionId, body);
  }

  @Delete(':versionId')
  @ApiOperation({ summary: 'Delete a version' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.VERSION_NOT_FOUND)
  @HttpCode(204)
  async remove(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('versionId', VERSION_ID_PIPE) versionId: number,
  ): Promise<void> {
    await this.versions.remove(actor, id, versionId);
  }
}
