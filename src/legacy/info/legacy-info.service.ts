import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ClientCall } from '../../access/client-call';
import { InterfaceGate } from '../../access/interface-gate';
import { AnnouncementsService } from '../../announcements/announcements.service';
import { LoginTokensService } from '../../cards/login-tokens.service';
import { unixSeconds } from '../../common/time';
import { ClientReply } from '../../http/envelope/render';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { Project } from '../../projects/project.entity';
import { RemoteVariablesService } from '../../remote-variables/remote-variables.service';
import { parseVersion, VERSION_RULE } from '../../versions/version-order';
import { VersionsService } from '../../versions/versions.service';
import { LegacyAnnouncement, LegacyAppConfig, LegacyAppProfile } from '../legacy-answers';

/** Longer than any token this service issues; a longer one is simply not valid (never an error). */
const TOKEN_MAX_LENGTH = 512;

/** The lowest version there is: a version check from it yields the program's latest version. */
const LOWEST_VERSION = '0';

/**
 * The read-only legacy actions (decisions §9, §10): announcement, version check, remote variables
 * (`app_config`) and the program's public profile (`app_profile`). Each admits the request through
 * the interface gate under its canonical name, so the older routes, the aggregate entry and its
 * aliases share one authorization and one quota. Callers resolve the program (the `app` rules).
 */
@Injectable()
export class LegacyInfoService {
  constructor(
    private readonly gate: InterfaceGate,
    private readonly announcements: AnnouncementsService,
    private readonly versions: VersionsService,
    private readonly loginTokens: LoginTokensService,
    private readonly variables: RemoteVariablesService,
    @InjectRepository(Project) private readonly projects: Repository<Project>,
  ) {}

  /** This program's newest enabled announcement ('' if none); never a platform announcement. */
  async announcement(call: ClientCall): Promise<ClientReply> {
    await this.gate.admit(call, 'announcement');
    return {
      message: 'ok',
      data: {
        announcement: await this.announcements.clientText(call.program.project, call.context),
      } satisfies LegacyAnnouncement,
    };
  }

  /**
   * The version check of VersionsService. A client version that is not one is BAD_REQUEST, found
   * before the gate so that a malformed request consumes no quota (as the SDK route's validation).
   */
  async latestVersion(call: ClientCall, clientVersion: string): Promise<ClientReply> {
    if (typeof clientVersion !== 'string' || !parseVersion(clientVersion)) {
      throw new ServiceError(ErrorCode.BAD_REQUEST, `version must be ${VERSION_RULE}`, {
        details: [`version must be ${VERSION_RULE}`],
      });
    }
    return { message: 'Version checked', data: await this.versions.clientCheck(call, clientVersion) };
  }

  /**
   * The program's remote variables as `{name: value}`: the public ones always; the login-only ones
   * too when `token` is a valid compatible login token of THIS program (LoginTokensService: a
   * successful card login of the last 24 h whose card is still valid). SDK session tokens are not
   * accepted here. A missing or invalid token is not an error: the answer then holds the public
   * variables only, and `login_variables: false` says so.
   */
  async appConfig(call: ClientCall, token?: string): Promise<ClientReply> {
    await this.gate.admit(call, 'app_config');
    const { program } = call;
    const loggedIn =
      typeof token === 'string' &&
      token.length > 0 &&
      token.length <= TOKEN_MAX_LENGTH &&
      (await this.loginTokens.isValid(program.project.id, token));
    const variables = await this.variables.clientValues(program.project.id, loggedIn);
    return { message: 'ok', data: { variables, login_variables: loggedIn } satisfies LegacyAppConfig };
  }

  /**
   * The program's public profile. `latest_version` and `announcement` follow their own interfaces'
   * authorization without consuming their quota (null and '' where not authorized), as Connect
   * shows the announcement.
   */
  async appProfile(call: ClientCall): Promise<ClientReply> {
    await this.gate.admit(call, 'app_profile');
    const { program } = call;
    const { project } = program;
    const [row, latestVersion, announcement] = await Promise.all([
      this.projects.findOne({ where: { id: project.id }, select: { id: true, name: true } }),
      this.gate
        .isAuthorized(program, 'version_check', call.context)
        .then(async (ok) => (ok ? (await this.versions.check(project.id, LOWEST_VERSION)).latest_version : null)),
      this.gate
        .isAuthorized(program, 'announcement', call.context)
        .then((ok) => (ok ? this.announcements.clientText(project, call.context) : '')),
    ]);
    if (!row) throw new ServiceError(ErrorCode.PROGRAM_NOT_FOUND);
    return {
      message: 'ok',
      data: {
        program_id: project.programId,
        name: row.name,
        latest_version: latestVersion,
        announcement,
        heartbeat_interval_seconds: project.heartbeatIntervalSeconds,
        server_time: unixSeconds(),
      } satisfies LegacyAppProfile,
    };
  }
}
