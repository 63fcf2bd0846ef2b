import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, timingSafeEqual } from 'node:crypto';
import { In, Repository } from 'typeorm';
import { ClientCall } from '../../access/client-call';
import { AdminUser } from '../../admin-kernel/admin-user.entity';
import { unixSeconds } from '../../common/time';
import { blacklisted } from '../../core/errors/blacklisted';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { ClientReply } from '../../http/envelope/render';
import { PlatformService } from '../../platform/platform.service';
import { AuthorLimits, AuthorQuotas } from './author-quotas';
import { BlacklistEntry } from './blacklist-entry.entity';
import { authorizingSite, blockingDomainsFor, normalizeHostname, normalizeIp, sitePatternsFor } from './domain-rules';
import { LicenceSite } from './licence-site.entity';
import { VerifyDto } from './verify.dto';
import { LegacyVerification } from '../legacy-answers';

/**
 * Licence-file core verification, `/api/verify` (spec "Licence-file core verification"; decisions
 * §7, §10). Its own gate, not InterfaceGate: it needs the `licence_verify` entitlement instead of the
 * basic package, and the author's quotas instead of a per-project interface quota.
 */
@Injectable()
export class VerifyService {
  constructor(
    @InjectRepository(LicenceSite) private readonly sites: Repository<LicenceSite>,
    @InjectRepository(BlacklistEntry) private readonly blacklist: Repository<BlacklistEntry>,
    @InjectRepository(AdminUser) private readonly users: Repository<AdminUser>,
    private readonly platform: PlatformService,
    private readonly quotas: AuthorQuotas,
  ) {}

  /** The checks, in the spec's order; each refusal has its catalog code and counts nothing. */
  async verify({ program, ip: clientIp, context }: ClientCall, input: VerifyDto): Promise<ClientReply> {
    const { project } = program;
    if (!(await this.platform.interfaceStatus(context)).licence_verify) throw new ServiceError(ErrorCode.INTERFACE_DISABLED);
    if (project.status !== 'active') throw new ServiceError(ErrorCode.PROGRAM_DISABLED);
    if (program.authorStatus !== 'active') throw new ServiceError(ErrorCode.AUTHOR_DISABLED);
    if (!project.licenceVerify) {
      throw new ServiceError(ErrorCode.INTERFACE_NOT_AUTHORIZED, 'Licence verification is not enabled for this program');
    }
    if (program.authorizations.licence_verify?.authorized === false) throw new ServiceError(ErrorCode.INTERFACE_NOT_AUTHORIZED);
    if (!project.verificationEnabled) throw new ServiceError(ErrorCode.VERIFICATION_SWITCH_OFF);

    const domain = normalizeHostname(input.domain);
    const now = new Date();
    const candidates = await this.sites.findBy({ projectId: project.id, domain: In(sitePatternsFor(domain)) });
    const site = authorizingSite(candidates, domain, input.licence, now, licenceEquals);
    if (!site) throw new ServiceError(ErrorCode.SITE_NOT_AUTHORIZED);

    const ip = normalizeIp(clientIp);
    // The domain's entry first ('domain' < 'ip'): the refusal names the kind that matched.
    const blocked = await this.blacklist.findOne({
      select: { id: true, kind: true },
      where: [
        { projectId: project.id, kind: 'domain', value: In(blockingDomainsFor(domain)) },
        ...(ip ? [{ projectId: project.id, kind: 'ip' as const, value: ip }] : []),
      ],
      order: { kind: 'ASC' },
    });
    if (blocked) throw blacklisted(blocked.kind);

    if (project.ipBindings.length > 0 && !project.ipBindings.some((bound) => normalizeIp(bound) === ip)) {
      throw new ServiceError(ErrorCode.IP_NOT_BOUND);
    }

    // Metering off stops counting (and so enforcing) the quotas; every check above still applies.
    if ((await this.platform.getSettings(context)).legacy_metering_enabled) {
      if (!(await this.quotas.consume(await this.authorOf(project.id)))) throw new ServiceError(ErrorCode.QUOTA_EXCEEDED);
    }

    return {
      message: 'Site authorized',
      data: {
        domain,
        authorized: true,
        site: { domain: site.domain, expires_at: site.expiresAt?.toISOString() ?? null },
        server_time: unixSeconds(now),
      } satisfies LegacyVerification,
    };
  }

  /** The project's author and its quota fields, in one query. */
  private async authorOf(projectId: string): Promise<AuthorLimits> {
    const author = await this.users
      .createQueryBuilder('u')
      .innerJoin('projects', 'p', 'p.owner_id = u.id')
      .select(['u.id', 'u.dailyApiQuota', 'u.dailyVerifyQuota'])
      .where('p.id = :projectId', { projectId })
      .getOne();
    if (!author) throw new ServiceError(ErrorCode.PROGRAM_NOT_FOUND);
    return { id: author.id, dailyApiQuota: author.dailyApiQuota, dailyVerifyQuota: author.dailyVerifyQuota };
  }
}

/** Compares licences in constant time (over their digests, so the length leaks nothing either). */
function licenceEquals(expected: string, given: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(given));
}
