import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminAuth, AdminRoles } from '../admin-auth/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-auth/admin-principal';
import { PageQuery } from '../common/paging';
import { Envelope } from '../core/envelope/envelope.decorator';
import { CreatePlatformAnnouncementDto, SetInterfaceEnabledDto, UpdatePlatformSettingsDto } from './platform.dto';
import { PlatformService } from './platform.service';

@ApiTags('admin: platform')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/platform')
export class PlatformController {
  constructor(private readonly platform: PlatformService) {}

  @Get('settings')
  @AdminRoles('platform_admin')
  getSettings() {
    return this.platform.getSettings();
  }

  @Put('settings')
  @AdminRoles('platform_admin')
  updateSettings(@Body() body: UpdatePlatformSettingsDto) {
    return this.platform.updateSettings(body);
  }

  @Get('interfaces')
  @AdminRoles('platform_admin')
  listInterfaces() {
    return this.platform.listInterfaces();
  }

  @Put('interfaces/:name')
  @AdminRoles('platform_admin')
  setInterface(@Param('name') name: string, @Body() body: SetInterfaceEnabledDto) {
    return this.platform.setInterfaceEnabled(name, body.enabled);
  }

  @Post('announcements')
  @AdminRoles('platform_admin')
  createAnnouncement(@Body() body: CreatePlatformAnnouncementDto, @CurrentAdmin() admin: AdminPrincipal) {
    return this.platform.createAnnouncement(body, admin.id);
  }

  /** Authors read operator announcements here; they never reach a client route. */
  @Get('announcements')
  listAnnouncements(@Query() query: PageQuery) {
    return this.platform.listAnnouncements(query);
  }
}
