import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../../admin-kernel/admin-principal';
import { PROJECT_ID_PIPE } from '../../common/uuid-param.pipe';
import { Envelope } from '../../http/envelope/envelope.decorator';
import { ErrorCode } from '../../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiNoContent } from '../../http/openapi/api-contract';
import { PutCustomizationDto } from './customization.dto';
import { CustomizationPreview, CustomizationService, CustomizationView } from './customization.service';

@ApiTags('admin: connect customization')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/connect/customization')
export class CustomizationController {
  constructor(private readonly customizations: CustomizationService) {}

  @Get()
  @ApiOperation({ summary: 'Read the Connect customization (never its secret)' })
  @ApiAnswer(CustomizationView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  get(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string) {
    return this.customizations.get(actor, id);
  }

  @Put()
  @ApiOperation({ summary: 'Replace the Connect customization: field renames and the success token' })
  @ApiAnswer(CustomizationView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  put(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: PutCustomizationDto) {
    return this.customizations.put(actor, id, body);
  }

  @Delete()
  @ApiOperation({ summary: 'Reset the Connect customization to the defaults' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  @HttpCode(204)
  async reset(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string): Promise<void> {
    await this.customizations.reset(actor, id);
  }

  @Post('preview')
  @ApiOperation({ summary: 'Preview the Connect success and failure answers with the customization applied' })
  @ApiAnswer(CustomizationPreview)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  @HttpCode(200)
  preview(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string) {
    return this.customizations.preview(actor, id);
  }
}
