import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { Page, pageOf } from '../common/paging';
import { ProgramCache } from '../core/cache/program-cache';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { isUniqueViolation } from '../database/pg-errors';
import { ProjectAccess } from '../projects/project-access';
import { Project } from '../projects/project.entity';
import { LoginBlacklistEntry } from './login-blacklist-entry.entity';
import { normalizeAddressEntry } from '../common/blacklist-matcher';
import { CreateLoginBlacklistEntryDto, ListLoginBlacklistQuery, UpdateLoginBlacklistEntryDto } from './login-blacklist.dto';
import { LoginBlacklistView, toLoginBlacklistView } from './login-blacklist.view';

/** The author's login blacklist (decisions §24); every write moves the program's cache generation. */
@Injectable()
export class LoginBlacklistService {
  constructor(
    @InjectRepository(LoginBlacklistEntry) private readonly entries: Repository<LoginBlacklistEntry>,
    private readonly access: ProjectAccess,
    private readonly cache: ProgramCache,
  ) {}

  async create(actor: AdminPrincipal, projectId: string, input: CreateLoginBlacklistEntryDto): Promise<LoginBlacklistView> {
    const project = await this.access.find(actor, projectId);
    const value = input.kind === 'address' ? normalizeAddressEntry(input.value)! : input.value;
    const row = this.entries.create({
      projectId: project.id,
      kind: input.kind,
      value,
      note: input.note ?? null,
      expiresAt: input.expires_at ? new Date(input.expires_at) : null,
    });
    return toLoginBlacklistView(await this.saved(project, row));
  }

  /** Oldest first; `kind` narrows the list. */
  async list(actor: AdminPrincipal, projectId: string, query: ListLoginBlacklistQuery): Promise<Page<LoginBlacklistView>> {
    const project = await this.access.find(actor, projectId);
    const [rows, total] = await this.entries.findAndCount({
      where: { projectId: project.id, ...(query.kind ? { kind: query.kind } : {}) },
      order: { id: 'ASC' },
      skip: query.skip,
      take: query.page_size,
    });
    return pageOf(
      rows.map((row) => toLoginBlacklistView(row)),
      total,
      query,
    );
  }

  async update(
    actor: AdminPrincipal,
    projectId: string,
    id: number,
    input: UpdateLoginBlacklistEntryDto,
  ): Promise<LoginBlacklistView> {
    const project = await this.access.find(actor, projectId);
    const row = await this.entries.findOneBy({ id, projectId: project.id });
    if (!row) throw new ServiceError(ErrorCode.BLACKLIST_ENTRY_NOT_FOUND);
    if (input.note !== undefined) row.note = input.note;
    if (input.expires_at !== undefined) row.expiresAt = input.expires_at === null ? null : new Date(input.expires_at);
    return toLoginBlacklistView(await this.saved(project, row));
  }

  async remove(actor: AdminPrincipal, projectId: string, id: number): Promise<void> {
    const project = await this.access.find(actor, projectId);
    const { affected } = await this.entries.delete({ id, projectId: project.id });
    if (!affected) throw new ServiceError(ErrorCode.BLACKLIST_ENTRY_NOT_FOUND);
    await this.cache.invalidate(project.programId);
  }

  private async saved(project: Project, row: LoginBlacklistEntry): Promise<LoginBlacklistEntry> {
    try {
      const saved = await this.entries.save(row);
      await this.cache.invalidate(project.programId);
      return saved;
    } catch (error) {
      if (isUniqueViolation(error)) throw new ServiceError(ErrorCode.BLACKLIST_ENTRY_EXISTS, undefined, { details: ['value'] });
      throw error;
    }
  }
}
