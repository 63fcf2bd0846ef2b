import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { Page, PageQuery, pageOf } from '../common/paging';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { isUniqueViolation } from '../database/pg-errors';
import { ProjectAccess } from '../projects/project-access';
import { CreateRemoteVariableDto, UpdateRemoteVariableDto } from './remote-variable.dto';
import { RemoteVariable } from './remote-variable.entity';
import { RemoteVariableView, toRemoteVariableView } from './remote-variable.view';

/**
 * An author's remote variables (decisions §10, §11), each public or login-only. Clients read them
 * straight from the database (one indexed query per `app_config`), so nothing is cached and an
 * admin write is visible to the next client request on every instance.
 */
@Injectable()
export class RemoteVariablesService {
  constructor(
    @InjectRepository(RemoteVariable) private readonly variables: Repository<RemoteVariable>,
    private readonly access: ProjectAccess,
  ) {}

  /** `{name: value}` of a program's variables: the public ones, plus the login-only ones when asked. */
  async clientValues(projectId: string, includeLoginOnly: boolean): Promise<Record<string, string>> {
    const rows = await this.variables.find({
      where: includeLoginOnly ? { projectId } : { projectId, public: true },
      select: { name: true, value: true },
      order: { name: 'ASC' },
    });
    // A null-prototype object: a variable named `__proto__` stays an ordinary key.
    const values: Record<string, string> = Object.create(null);
    for (const row of rows) values[row.name] = row.value;
    return values;
  }

  async create(actor: AdminPrincipal, projectId: string, input: CreateRemoteVariableDto): Promise<RemoteVariableView> {
    const project = await this.access.find(actor, projectId);
    const row = this.variables.create({
      projectId: project.id,
      name: input.name,
      value: input.value,
      public: input.public ?? false,
    });
    return toRemoteVariableView(await this.store(row));
  }

  /** In name order. */
  async list(actor: AdminPrincipal, projectId: string, query: PageQuery): Promise<Page<RemoteVariableView>> {
    const project = await this.access.find(actor, projectId);
    const [rows, total] = await this.variables.findAndCount({
      where: { projectId: project.id },
      order: { name: 'ASC', id: 'ASC' },
      skip: query.skip,
      take: query.page_size,
    });
    return pageOf(rows.map(toRemoteVariableView), total, query);
  }

  async get(actor: AdminPrincipal, projectId: string, id: number): Promise<RemoteVariableView> {
    const project = await this.access.find(actor, projectId);
    return toRemoteVariableView(await this.find(project.id, id));
  }

  async update(
    actor: AdminPrincipal,
    projectId: string,
    id: number,
    input: UpdateRemoteVariableDto,
  ): Promise<RemoteVariableView> {
    const project = await this.access.find(actor, projectId);
    const row = await this.find(project.id, id);
    if (input.name !== undefined) row.name = input.name;
    if (input.value !== undefined) row.value = input.value;
    if (input.public !== undefined) row.public = input.public;
    return toRemoteVariableView(await this.store(row));
  }

  async remove(actor: AdminPrincipal, projectId: string, id: number): Promise<void> {
    const project = await this.access.find(actor, projectId);
    const { affected } = await this.variables.delete({ id, projectId: project.id });
    if (!affected) throw notFound();
  }

  /** Saves; the unique index (project, name) turns a duplicate name into VARIABLE_NAME_TAKEN, also under races. */
  private async store(row: RemoteVariable): Promise<RemoteVariable> {
    try {
      return await this.variables.save(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ServiceError(ErrorCode.VARIABLE_NAME_TAKEN, undefined, { details: ['name'] });
      throw error;
    }
  }

  private async find(projectId: string, id: number): Promise<RemoteVariable> {
    const row = await this.variables.findOneBy({ id, projectId });
    if (!row) throw notFound();
    return row;
  }
}

function notFound(): ServiceError {
  return new ServiceError(ErrorCode.VARIABLE_NOT_FOUND);
}
