import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../../admin-auth/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../../admin-auth/admin-principal';
import { PROJECT_ID_PIPE } from '../../common/uuid-param.pipe';
import { Envelope } from '../../core/envelope/envelope.decorator';
import { PutCustomizationDto } from './customization.dto';
import { CustomizationService } from './customization.service';

@ApiTags('admin: connect customization')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/connect/customization')
export class CustomizationController {
  constructor(private readonly customizations: CustomizationService) {}

  @Get()
  get(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string) {
    return this.customizations.get(actor, id);
  }

  @Put()
  put(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: PutCustomizationDto) {
    return this.customizations.put(actor, id, body);
  }

  @Delete()
  @HttpCode(204)
  async reset(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string): Promise<void> {
    await this.customizations.reset(actor, id);
  }

  @Post('preview')
  @HttpCode(200)
  preview(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string) {
    return this.customizations.preview(actor, id);
  }
}
