import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { Page, pageOf } from '../common/paging';
import { hashPassword } from '../core/crypto/passwords';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { ProjectAccess } from '../projects/project-access';
import { SessionRevocations } from '../sessions/session-revocations';
import { AppUser } from './app-user.entity';
import { AppUserView, toAppUserView } from './app-user.view';
import { ListAppUsersQuery, UpdateAppUserDto } from './app-users.dto';

/**
 * Program users of a project as its author manages them: list and search, get, ban and unban,
 * reset the password, unbind the machine. A ban or a new password ends every session of the user;
 * an unbind ends the sessions on the machine that was bound. (Forced offline alone is the
 * sessions route, `POST /projects/:id/sessions/revoke {user_id}`.)
 */
@Injectable()
export class AppUsersAdminService {
  constructor(
    @InjectRepository(AppUser) private readonly users: Repository<AppUser>,
    private readonly access: ProjectAccess,
    private readonly sessions: SessionRevocations,
  ) {}

  async list(actor: AdminPrincipal, projectId: string, query: ListAppUsersQuery): Promise<Page<AppUserView>> {
    const project = await this.access.find(actor, projectId);
    const qb = this.users.createQueryBuilder('u').where('u.project_id = :projectId', { projectId: project.id });
    if (query.q !== undefined)
      qb.andWhere("lower(u.username) LIKE :q ESCAPE '\\'", { q: `%${escapeLike(query.q.toLowerCase())}%` });
    if (query.status !== undefined) qb.andWhere('u.status = :status', { status: query.status });
    const [rows, total] = await qb.orderBy('u.id', 'DESC').skip(query.skip).take(query.page_size).getManyAndCount();
    return pageOf(rows.map(toAppUserView), total, query);
  }

  async get(actor: AdminPrincipal, projectId: string, userId: number): Promise<AppUserView> {
    const project = await this.access.find(actor, projectId);
    return toAppUserView(await this.find(project.id, userId));
  }

  async update(actor: AdminPrincipal, projectId: string, userId: number, input: UpdateAppUserDto): Promise<AppUserView> {
    const project = await this.access.find(actor, projectId);
    const user = await this.find(project.id, userId);
    const changes: Partial<Pick<AppUser, 'status' | 'passwordHash' | 'boundMachineId'>> = {};
    if (input.status !== undefined) changes.status = input.status;
    if (input.password !== undefined) changes.passwordHash = await hashPassword(input.password);
    if (input.machine_id === null) changes.boundMachineId = null;
    if (Object.keys(changes).length) await this.users.update({ id: user.id }, changes);
    if (input.status === 'banned' || input.password !== undefined) {
      await this.sessions.revokeWhere(
        project.id,
        { userId: user.id },
        input.status === 'banned' ? 'user_banned' : 'forced_offline',
      );
    } else if (input.machine_id === null && user.boundMachineId !== null) {
      await this.sessions.revokeWhere(project.id, { userId: user.id, machine: user.boundMachineId }, 'device_unbound');
    }
    return toAppUserView(await this.find(project.id, userId));
  }

  private async find(projectId: string, userId: number): Promise<AppUser> {
    const user = await this.users.findOneBy({ id: userId, projectId });
    if (!user) throw new ServiceError(ErrorCode.APP_USER_NOT_FOUND);
    return user;
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
