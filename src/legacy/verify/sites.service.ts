import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AdminPrincipal } from '../../admin-kernel/admin-principal';
import { Page, PageQuery, pageOf } from '../../common/paging';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { isUniqueViolation } from '../../database/pg-errors';
import { ProjectAccess } from '../../projects/project-access';
import { normalizeHostname } from './domain-rules';
import { LicenceSite } from './licence-site.entity';
import { CreateSiteDto, UpdateSiteDto } from './sites.dto';
import { SiteView, toSiteView } from './verify.view';

/**
 * An author's authorized sites for licence-file verification (decisions §10, §11). `/api/verify`
 * reads them straight from the database, so a write is seen by the next request.
 */
@Injectable()
export class SitesService {
  constructor(
    @InjectRepository(LicenceSite) private readonly sites: Repository<LicenceSite>,
    private readonly access: ProjectAccess,
  ) {}

  async create(actor: AdminPrincipal, projectId: string, input: CreateSiteDto): Promise<SiteView> {
    const project = await this.access.find(actor, projectId);
    const row = this.sites.create({
      projectId: project.id,
      domain: normalizeHostname(input.domain),
      licence: input.licence ?? null,
      expiresAt: input.expires_at ? new Date(input.expires_at) : null,
      note: input.note ?? null,
    });
    return toSiteView(await this.save(row));
  }

  /** Oldest first. */
  async list(actor: AdminPrincipal, projectId: string, query: PageQuery): Promise<Page<SiteView>> {
    const project = await this.access.find(actor, projectId);
    const [rows, total] = await this.sites.findAndCount({
      where: { projectId: project.id },
      order: { id: 'ASC' },
      skip: query.skip,
      take: query.page_size,
    });
    return pageOf(rows.map(toSiteView), total, query);
  }

  async get(actor: AdminPrincipal, projectId: string, id: number): Promise<SiteView> {
    const project = await this.access.find(actor, projectId);
    return toSiteView(await this.find(project.id, id));
  }

  async update(actor: AdminPrincipal, projectId: string, id: number, input: UpdateSiteDto): Promise<SiteView> {
    const project = await this.access.find(actor, projectId);
    const row = await this.find(project.id, id);
    if (input.domain !== undefined) row.domain = normalizeHostname(input.domain);
    if (input.licence !== undefined) row.licence = input.licence;
    if (input.expires_at !== undefined) row.expiresAt = input.expires_at === null ? null : new Date(input.expires_at);
    if (input.note !== undefined) row.note = input.note;
    return toSiteView(await this.save(row));
  }

  async remove(actor: AdminPrincipal, projectId: string, id: number): Promise<void> {
    const project = await this.access.find(actor, projectId);
    const { affected } = await this.sites.delete({ id, projectId: project.id });
    if (!affected) throw notFound();
  }

  private async save(row: LicenceSite): Promise<LicenceSite> {
    try {
      return await this.sites.save(row);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ServiceError(ErrorCode.SITE_EXISTS, undefined, { details: ['domain'] });
      }
      throw error;
    }
  }

  private async find(projectId: string, id: number): Promise<LicenceSite> {
    const row = await this.sites.findOneBy({ id, projectId });
    if (!row) throw notFound();
    return row;
  }
}

function notFound(): ServiceError {
  return new ServiceError(ErrorCode.SITE_NOT_FOUND);
}
