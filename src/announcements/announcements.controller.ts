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
import { AnnouncementView } from './announcement.view';
import { CreateAnnouncementDto, UpdateAnnouncementDto } from './announcement.dto';
import { AnnouncementsService } from './announcements.service';

const ANNOUNCEMENT_ID_PIPE = new IntIdParamPipe(ErrorCode.ANNOUNCEMENT_NOT_FOUND);

@ApiTags('admin: announcements')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/announcements')
export class AnnouncementsController {
  constructor(private readonly announcements: AnnouncementsService) {}

  @Post()
  @ApiOperation({ summary: 'Create an announcement' })
  @ApiAnswer(AnnouncementView, { status: 201 })
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  create(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: CreateAnnouncementDto) {
    return this.announcements.create(actor, id, body);
  }

  @Get()
  @ApiOperation({ summary: 'List the announcements of a project' })
  @ApiPageAnswer(AnnouncementView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: PageQuery) {
    return this.announcements.list(actor, id, query);
  }

  @Get(':annId')
  @ApiOperation({ summary: 'Read an announcement' })
  @ApiAnswer(AnnouncementView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.ANNOUNCEMENT_NOT_FOUND)
  get(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('annId', ANNOUNCEMENT_ID_PIPE) annId: number,
  ) {
    return this.announcements.get(actor, id, annId);
  }

  @Patch(':annId')
  @ApiOperation({ summary: 'Change an announcement' })
  @ApiAnswer(AnnouncementView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.ANNOUNCEMENT_NOT_FOUND)
  update(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('annId', ANNOUNCEMENT_ID_PIPE) annId: number,
    @Body() body: UpdateAnnouncementDto,
  ) {
    return this.announcements.update(actor, id, annId, body);
  }

  @Delete(':annId')
  @ApiOperation({ summary: 'Delete an announcement' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.ANNOUNCEMENT_NOT_FOUND)
  @HttpCode(204)
  async remove(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('annId', ANNOUNCEMENT_ID_PIPE) annId: number,
  ): Promise<void> {
    await this.announcements.remove(actor, id, annId);
  }
}
