import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AdminPrincipal } from '../../admin-kernel/admin-principal';
import { Page, pageOf } from '../../common/paging';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { isUniqueViolation } from '../../database/pg-errors';
import { ProjectAccess } from '../../projects/project-access';
import { BlacklistEntry } from './blacklist-entry.entity';
import { CreateBlacklistEntryDto, ListBlacklistQuery } from './blacklist.dto';
import { normalizeHostname, normalizeIp } from './domain-rules';
import { BlacklistView, toBlacklistView } from './verify.view';

/** An author's domain and IP blacklist for licence-file verification (decisions §10, §11). */
@Injectable()
export class BlacklistService {
  constructor(
    @InjectRepository(BlacklistEntry) private readonly entries: Repository<BlacklistEntry>,
    private readonly access: ProjectAccess,
  ) {}

  async create(actor: AdminPrincipal, projectId: string, input: CreateBlacklistEntryDto): Promise<BlacklistView> {
    const project = await this.access.find(actor, projectId);
    const value = input.kind === 'ip' ? normalizeIp(input.value) : normalizeHostname(input.value);
    try {
      return toBlacklistView(await this.entries.save(this.entries.create({ projectId: project.id, kind: input.kind, value })));
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ServiceError(ErrorCode.BLACKLIST_ENTRY_EXISTS, undefined, { details: ['value'] });
      }
      throw error;
    }
  }

  /** Oldest first; `kind` narrows the list. */
  async list(actor: AdminPrincipal, projectId: string, query: ListBlacklistQuery): Promise<Page<BlacklistView>> {
    const project = await this.access.find(actor, projectId);
    const [rows, total] = await this.entries.findAndCount({
      where: { projectId: project.id, ...(query.kind ? { kind: query.kind } : {}) },
      order: { id: 'ASC' },
      skip: query.skip,
      take: query.page_size,
    });
    return pageOf(rows.map(toBlacklistView), total, query);
  }

  async remove(actor: AdminPrincipal, projectId: string, id: number): Promise<void> {
    const project = await this.access.find(actor, projectId);
    const { affected } = await this.entries.delete({ id, projectId: project.id });
    if (!affected) throw new ServiceError(ErrorCode.BLACKLIST_ENTRY_NOT_FOUND);
  }
}
