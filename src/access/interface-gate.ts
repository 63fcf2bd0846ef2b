import { Injectable } from '@nestjs/common';
import { blacklisted } from '../core/errors/blacklisted';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { noteClientRequest, onFault, RequestContext } from '../http/request-context';
import { MetricsService } from '../http/metrics/metrics.service';
import { connectOpen } from '../platform/connect-opening';
import { InterfaceName } from '../platform/interface-names';
import { PlatformService } from '../platform/platform.service';
import { LoginBlacklist } from '../login-blacklist/login-blacklist';
import { FAMILY_GATES } from '../core/client-families';
import { ClientCall } from './client-call';
import { ClientProgram } from './client-program';
import { DailyQuota, interfaceQuotaSubject } from './daily-quota';

/**
 * Files the request as a call of interface `name` from `device` before its gate is reached: a
 * session heartbeat refused by its session (ended, another machine, another type) gets the same
 * request-log row as an accepted one, its interface and card. Call it once the
 * program is known (the row belongs to its project from then on).
 */
export function noteInterface(context: RequestContext | undefined, name: InterfaceName, device?: string): void {
  noteClientRequest(context, { interface: name, device });
}

/**
 * The checks every client interface passes, in the order of decisions §3: program and author
 * status, basic package (or Connect opening), verification switch, platform interface status,
 * per-project authorization, the login blacklist (decisions §24: the caller's address, and `device`
 * where the interface carries a device code), then the daily quota (a refused request consumes
 * none, and a request that ends in a platform fault gives its unit back).
 */
@Injectable()
export class InterfaceGate {
  constructor(
    private readonly platform: PlatformService,
    private readonly quota: DailyQuota,
    private readonly metrics: MetricsService,
    private readonly blacklist: LoginBlacklist,
  ) {}

  /** Admits `call` to interface `name` with the options of its family (`FAMILY_GATES`); `device`: the device code it names. */
  async admit(call: Pick<ClientCall, 'program' | 'family' | 'context'>, name: InterfaceName, device?: string): Promise<void> {
    const { program, context } = call;
    const { project } = program;
    const options = FAMILY_GATES[call.family];
    noteClientRequest(context, { interface: name, device });
    if (project.status !== 'active') throw new ServiceError(ErrorCode.PROGRAM_DISABLED);
    if (program.authorStatus !== 'active') throw new ServiceError(ErrorCode.AUTHOR_DISABLED);
    if (options.requireBasicPackage && !project.basicPackage) throw new ServiceError(ErrorCode.PACKAGE_NOT_ENABLED);
    if (options.requireConnect && !(await this.connectOpen(program, context)))
      throw new ServiceError(ErrorCode.CONNECT_NOT_ENABLED);
    if (!project.verificationEnabled) throw new ServiceError(ErrorCode.VERIFICATION_SWITCH_OFF);
    if (!(await this.platform.interfaceStatus(context))[name]) throw new ServiceError(ErrorCode.INTERFACE_DISABLED);
    const authorization = program.authorizations[name];
    if (authorization && !authorization.authorized) throw new ServiceError(ErrorCode.INTERFACE_NOT_AUTHORIZED);
    const listed = await this.blacklist.match(program, context?.clientIp ?? '', device, context);
    if (listed) {
      // The request log keeps which entry refused it; its explain names the entry (decisions §22).
      noteClientRequest(context, { reason: `login blacklist entry ${listed.id}: ${listed.kind} ${listed.value}` });
      throw blacklisted(listed.kind);
    }
    const subject = interfaceQuotaSubject(project.id, name);
    const limit = authorization?.dailyQuota ?? null;
    if (!(await this.quota.consume(subject, limit))) {
      this.metrics.quotaRefused(call.family, name);
      throw new ServiceError(ErrorCode.QUOTA_EXCEEDED);
    }
    if (limit !== null) onFault(context, () => this.quota.release(subject, limit));
  }

  /** Whether an interface is usable without consuming quota (e.g. to show an announcement). */
  async isAuthorized(program: ClientProgram, name: InterfaceName, request?: RequestContext): Promise<boolean> {
    if (!(await this.platform.interfaceStatus(request))[name]) return false;
    return program.authorizations[name]?.authorized ?? true;
  }

  /** Connect opening mode (decisions §7). */
  async connectOpen({ project }: ClientProgram, request?: RequestContext): Promise<boolean> {
    return connectOpen(await this.platform.getSettings(request), project);
  }
}
