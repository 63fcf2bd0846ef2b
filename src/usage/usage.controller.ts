import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DailyQuota, interfaceQuotaSubject } from '../access/daily-quota';
import { AdminAuth } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { PROJECT_ID_PIPE } from '../common/uuid-param.pipe';
import { AppConfig } from '../config/app-config';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures } from '../http/openapi/api-contract';
import { InterfaceName } from '../platform/interface-names';
import { ProjectAccess } from '../projects/project-access';
import { ProjectInterfacesService } from '../projects/project-interfaces.service';
import { LiveSessions } from '../sessions/live-sessions';
import { UsageView } from './usage.view';
import { CardTrialsService } from '../cards/trials/card-trials.service';

/** The live figures of a project's Overview, beside the login counts of `/stats`. */
@ApiTags('admin: sessions')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/usage')
export class UsageController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly interfaces: ProjectInterfacesService,
    private readonly sessions: LiveSessions,
    private readonly quota: DailyQuota,
    private readonly config: AppConfig,
    private readonly trials: CardTrialsService,
  ) {}

  @Get()
  @ApiOperation({ summary: "Live sessions by type, today's use of each interface's daily quota and the trials given" })
  @ApiAnswer(UsageView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  async usage(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string): Promise<UsageView> {
    const project = await this.access.find(actor, id);
    const [sessions, items, trials] = await Promise.all([
      this.sessions.counts(project.id),
      this.interfaces.itemsOf(project.id),
      this.trials.count(project.id),
    ]);
    const interfaces = await Promise.all(
      items.map(async ({ name, authorized, platform_enabled, daily_quota }) => ({
        name,
        authorized,
        platform_enabled,
        daily_quota,
        used: daily_quota === null ? null : await this.quota.used(interfaceQuotaSubject(project.id, name as InterfaceName)),
      })),
    );
    return { day: this.quota.today(), time_zone: this.config.APP_TIMEZONE, sessions, interfaces, trials };
  }
}
