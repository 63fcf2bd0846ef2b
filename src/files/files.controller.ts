import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { IncomingMessage } from 'node:http';
import { AdminAuth } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { PageQuery } from '../common/paging';
import { PROJECT_ID_PIPE, UuidParamPipe } from '../common/uuid-param.pipe';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiNoContent, ApiPageAnswer } from '../http/openapi/api-contract';
import { FileView } from './file.view';
import { AcceptsBody, MULTIPART_CONTENT_TYPE } from '../http/content-type';
import { FilesService, UPLOAD_FIELD } from './files.service';

/** Express hands over the Node request itself, Fastify wraps it as `raw`; both leave multipart unread. */
type AdapterRequest = IncomingMessage & { raw?: IncomingMessage };

const FILE_ID_PIPE = new UuidParamPipe(ErrorCode.FILE_NOT_FOUND);

@ApiTags('admin: files')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/files')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @Post()
  @ApiOperation({ summary: 'Upload a file (multipart, one part) for versions and client downloads' })
  @ApiAnswer(FileView, { status: 201 })
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.FILE_TOO_LARGE)
  @AcceptsBody('multipart')
  @ApiConsumes(MULTIPART_CONTENT_TYPE)
  @ApiBody({
    schema: { type: 'object', required: [UPLOAD_FIELD], properties: { [UPLOAD_FIELD]: { type: 'string', format: 'binary' } } },
  })
  upload(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Req() request: AdapterRequest) {
    return this.files.upload(actor, id, request.raw ?? request);
  }

  @Get()
  @ApiOperation({ summary: 'List the files of a project' })
  @ApiPageAnswer(FileView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: PageQuery) {
    return this.files.list(actor, id, query);
  }

  @Get(':fileId')
  @ApiOperation({ summary: "Read a file's details" })
  @ApiAnswer(FileView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.FILE_NOT_FOUND)
  get(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('fileId', FILE_ID_PIPE) fileId: string,
  ) {
    return this.files.get(actor, id, fileId);
  }

  @Delete(':fileId')
  @ApiOperation({ summary: 'Delete a file' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.FILE_NOT_FOUND)
  @HttpCode(204)
  async remove(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('fileId', FILE_ID_PIPE) fileId: string,
  ): Promise<void> {
    await this.files.remove(actor, id, fileId);
  }
}
