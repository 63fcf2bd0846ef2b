import { Body, Controller, Delete, Get, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminAuth, AdminRoles } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { StepUp } from '../admin-kernel/step-up';
import { UuidParamPipe } from '../common/uuid-param.pipe';
import { ErrorCode } from '../core/errors/error-code';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ApiAnswer, ApiFailures, ApiListAnswer, ApiNoContent } from '../http/openapi/api-contract';
import { BackupView } from './backup.view';
import { MakeBackupDto } from './backups.dto';
import { BackupsService } from './backups.service';

/** decisions §24: "New codes: none": an unknown backup is the catalog's generic NOT_FOUND. */
const BACKUP_ID_PIPE = new UuidParamPipe(ErrorCode.NOT_FOUND);

/**
 * The running service's backups into BACKUP_DIR (decisions §24), platform admins only. Making,
 * downloading and deleting one take a fresh two-factor code from an account that has two-factor
 * sign-in: an archive holds every table of the service.
 */
@ApiTags('admin: platform')
@Envelope('admin')
@AdminAuth()
@AdminRoles('platform_admin')
@Controller('admin/v1/platform/backups')
export class BackupsController {
  constructor(private readonly backups: BackupsService) {}

  @Post()
  @ApiOperation({ summary: 'Make a backup of the running service now (an archive in BACKUP_DIR)' })
  @ApiBody({ type: MakeBackupDto, required: false })
  @ApiAnswer(BackupView, { status: 201 })
  @StepUp()
  make(@Body() body: MakeBackupDto, @CurrentAdmin() admin: AdminPrincipal) {
    return this.backups.make({ trigger: 'manual', createdBy: admin.id, withoutLogs: body?.without_logs });
  }

  @Get()
  @ApiOperation({ summary: 'List the backups, newest first (made by hand, by the schedule, before an upgrade)' })
  @ApiListAnswer(BackupView)
  list() {
    return this.backups.list();
  }

  @Get(':id/download')
  @ApiProduces('application/gzip')
  @ApiOperation({ summary: "Download a backup's archive" })
  @ApiResponse({
    status: 200,
    description: "The archive's bytes (a gzip'd tar)",
    content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } },
  })
  @StepUp()
  // Below @StepUp: the first list applied is kept, so it names the step-up's codes too.
  @ApiFailures(ErrorCode.NOT_FOUND, ErrorCode.TWO_FACTOR_REQUIRED, ErrorCode.TWO_FACTOR_CODE_INVALID)
  async download(@Param('id', BACKUP_ID_PIPE) id: string): Promise<StreamableFile> {
    const { file, bytes, stream } = await this.backups.openDownload(id);
    return new StreamableFile(stream, { type: 'application/gzip', disposition: `attachment; filename="${file}"`, length: bytes });
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a backup: its archive and its row' })
  @ApiNoContent()
  @HttpCode(204)
  @StepUp()
  @ApiFailures(ErrorCode.NOT_FOUND, ErrorCode.TWO_FACTOR_REQUIRED, ErrorCode.TWO_FACTOR_CODE_INVALID)
  async remove(@Param('id', BACKUP_ID_PIPE) id: string): Promise<void> {
    await this.backups.remove(id);
  }
}
