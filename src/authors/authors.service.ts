import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AccountSessions } from '../admin-kernel/admin-checks';
import { ACCOUNT_STATUSES, AdminUser } from '../admin-kernel/admin-user.entity';
import { ProgramCache } from '../core/cache/program-cache';
import { Project } from '../projects/project.entity';
import { Page, pageOf } from '../common/paging';
import { hashPassword } from '../core/crypto/passwords';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { isUniqueViolation } from '../database/pg-errors';
import type { AdminPrincipal } from '../admin-kernel/admin-principal';
import { noteChange } from '../common/audit-note';
import { CreateAuthorDto, ListAuthorsQuery, UpdateAuthorDto } from './author.dto';

export class AuthorView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() username!: string;
  @ApiProperty({ enum: ['author'] }) role!: 'author';
  @ApiProperty({ enum: ACCOUNT_STATUSES }) status!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'client API calls per day over all projects; null: unlimited' })
  daily_api_quota!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'licence verifications per day; null: unlimited' })
  daily_verify_quota!: number | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at!: string;
}

export function toAuthorView(user: AdminUser): AuthorView {
  return {
    id: user.id,
    username: user.username,
    role: 'author',
    status: user.status,
    daily_api_quota: user.dailyApiQuota,
    daily_verify_quota: user.dailyVerifyQuota,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}

/** Authors (project owners), managed by platform admins. */
@Injectable()
export class AuthorsService {
  constructor(
    @InjectRepository(AdminUser) private readonly users: Repository<AdminUser>,
    private readonly sessions: AccountSessions,
    @InjectRepository(Project) private readonly projects: Repository<Project>,
    private readonly programCache: ProgramCache,
  ) {}

  async create(input: CreateAuthorDto): Promise<AuthorView> {
    const passwordHash = await hashPassword(input.password);
    try {
      const user = await this.users.save(
        this.users.create({
          username: input.username,
          passwordHash,
          role: 'author',
          status: 'active',
          dailyApiQuota: input.daily_api_quota ?? null,
          dailyVerifyQuota: input.daily_verify_quota ?? null,
        }),
      );
      return toAuthorView(user);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ServiceError(ErrorCode.AUTHOR_USERNAME_TAKEN, undefined, { details: ['username'] });
      throw error;
    }
  }

  async list(query: ListAuthorsQuery): Promise<Page<AuthorView>> {
    const qb = this.users.createQueryBuilder('u').where('u.role = :role', { role: 'author' });
    if (query.status) qb.andWhere('u.status = :status', { status: query.status });
    if (query.q) qb.andWhere("u.username ILIKE :q ESCAPE '\\'", { q: `%${query.q.replace(/[\\%_]/g, '\\$&')}%` });
    const [rows, total] = await qb.orderBy('u.created_at', 'DESC').skip(query.skip).take(query.page_size).getManyAndCount();
    return pageOf(rows.map(toAuthorView), total, query);
  }

  async get(id: string): Promise<AuthorView> {
    return toAuthorView(await this.find(id));
  }

  async update(id: string, input: UpdateAuthorDto, actor?: AdminPrincipal): Promise<AuthorView> {
    const user = await this.find(id);
    const before = toAuthorView(user);
    if (input.status !== undefined) user.status = input.status;
    if (input.daily_api_quota !== undefined) user.dailyApiQuota = input.daily_api_quota;
    if (input.daily_verify_quota !== undefined) user.dailyVerifyQuota = input.daily_verify_quota;
    if (input.password !== undefined) user.passwordHash = await hashPassword(input.password);
    const saved = await this.users.save(user);
    // A disabled author, or one whose password was reset, must log in again; a reset also revokes its API keys.
    if (input.password !== undefined) await this.sessions.revokeAfterPasswordReset(user.id);
    else if (input.status === 'disabled') await this.sessions.revokeAll(user.id);
    if (input.status !== undefined) await this.invalidateProgramsOf(user.id);
    const after = toAuthorView(saved);
    // A new password is a change worth recording, never its value (redacted by name).
    if (actor) noteChange(actor, { before, after: input.password !== undefined ? { ...after, password: 'changed' } : after });
    return after;
  }

  /** Client routes check the author's status through the program cache. */
  private async invalidateProgramsOf(ownerId: string): Promise<void> {
    const projects = await this.projects.find({ where: { ownerId }, select: { programId: true } });
    await this.programCache.invalidate(...projects.map((p) => p.programId));
  }

  private async find(id: string): Promise<AdminUser> {
    const user = await this.users.findOneBy({ id, role: 'author' });
    if (!user) throw new ServiceError(ErrorCode.AUTHOR_NOT_FOUND);
    return user;
  }
}
