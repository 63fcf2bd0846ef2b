import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth, AdminRoles } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin, isPlatformAdmin } from '../admin-kernel/admin-principal';
import { IntIdParamPipe } from '../common/int-id-param.pipe';
import { PageQuery } from '../common/paging';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiListAnswer, ApiNoContent, ApiPageAnswer } from '../http/openapi/api-contract';
import {
  CreatePlatformAnnouncementDto,
  SetInterfaceEnabledDto,
  UpdatePlatformAnnouncementDto,
  UpdatePlatformSettingsDto,
} from './platform.dto';
import { PlatformAnnouncementView, PlatformInterfaceView, PlatformService, PlatformSettingsView } from './platform.service';

/** A platform announcement is an announcement too: the same "not found" (docs/decisions.md). */
const ANNOUNCEMENT_ID_PIPE = new IntIdParamPipe(ErrorCode.ANNOUNCEMENT_NOT_FOUND);

@ApiTags('admin: platform')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/platform')
export class PlatformController {
  constructor(private readonly platform: PlatformService) {}

  @Get('settings')
  @ApiOperation({ summary: 'Read the platform settings' })
  @ApiAnswer(PlatformSettingsView)
  @AdminRoles('platform_admin')
  getSettings() {
    return this.platform.getSettings();
  }

  @Put('settings')
  @ApiOperation({ summary: 'Change the platform settings (Connect opening mode and minimum level, metering)' })
  @ApiAnswer(PlatformSettingsView)
  @AdminRoles('platform_admin')
  updateSettings(@Body() body: UpdatePlatformSettingsDto, @CurrentAdmin() admin: AdminPrincipal) {
    return this.platform.updateSettings(body, admin);
  }

  @Get('interfaces')
  @ApiOperation({ summary: 'List the client interfaces and whether each is on platform-wide' })
  @ApiListAnswer(PlatformInterfaceView)
  @AdminRoles('platform_admin')
  listInterfaces() {
    return this.platform.listInterfaces();
  }

  @Put('interfaces/:name')
  @ApiOperation({ summary: 'Switch a client interface on or off platform-wide' })
  @ApiAnswer(PlatformInterfaceView)
  @ApiFailures(ErrorCode.INTERFACE_NOT_FOUND)
  @AdminRoles('platform_admin')
  setInterface(@Param('name') name: string, @Body() body: SetInterfaceEnabledDto) {
    return this.platform.setInterfaceEnabled(name, body.enabled);
  }

  @Post('announcements')
  @ApiOperation({ summary: 'Publish a platform announcement to authors' })
  @ApiAnswer(PlatformAnnouncementView, { status: 201 })
  @AdminRoles('platform_admin')
  createAnnouncement(@Body() body: CreatePlatformAnnouncementDto, @CurrentAdmin() admin: AdminPrincipal) {
    return this.platform.createAnnouncement(body, admin.id);
  }

  /** Authors read operator announcements here (enabled ones only); they never reach a client route. */
  @Get('announcements')
  @ApiOperation({ summary: 'List the platform announcements, newest first (authors: the enabled ones only)' })
  @ApiPageAnswer(PlatformAnnouncementView)
  listAnnouncements(@Query() query: PageQuery, @CurrentAdmin() admin: AdminPrincipal) {
    return this.platform.listAnnouncements(query, !isPlatformAdmin(admin));
  }

  @Patch('announcements/:id')
  @ApiOperation({ summary: 'Correct, show or hide a platform announcement' })
  @ApiAnswer(PlatformAnnouncementView)
  @ApiFailures(ErrorCode.ANNOUNCEMENT_NOT_FOUND)
  @AdminRoles('platform_admin')
  updateAnnouncement(@Param('id', ANNOUNCEMENT_ID_PIPE) id: number, @Body() body: UpdatePlatformAnnouncementDto) {
    return this.platform.updateAnnouncement(id, body);
  }

  @Delete('announcements/:id')
  @ApiOperation({ summary: 'Delete a platform announcement' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.ANNOUNCEMENT_NOT_FOUND)
  @AdminRoles('platform_admin')
  @HttpCode(204)
  async removeAnnouncement(@Param('id', ANNOUNCEMENT_ID_PIPE) id: number): Promise<void> {
    await this.platform.removeAnnouncement(id);
  }
}
