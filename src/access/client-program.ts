import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AccountStatus } from '../admin-auth/admin-user.entity';
import { PROGRAM_ID_PATTERN } from '../common/field-rules';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { Project } from '../projects/project.entity';

/** A program as a client route sees it: the project and its author's status. */
export interface ClientProgram {
  project: Project;
  authorStatus: AccountStatus;
}

/** Finds the program behind a public program ID (never an internal project key). */
@Injectable()
export class ClientProgramDirectory {
  constructor(@InjectRepository(Project) private readonly projects: Repository<Project>) {}

  async byProgramId(programId: string): Promise<ClientProgram> {
    if (!PROGRAM_ID_PATTERN.test(programId)) throw new ServiceError(ErrorCode.PROGRAM_NOT_FOUND);
    return this.find('p.program_id = :programId', { programId });
  }

  /** The program of a session or another record that holds the internal key. */
  async byProjectId(projectId: string): Promise<ClientProgram> {
    return this.find('p.id = :projectId', { projectId });
  }

  private async find(where: string, params: Record<string, string>): Promise<ClientProgram> {
    const row = await this.projects
      .createQueryBuilder('p')
      .innerJoin('admin_users', 'u', 'u.id = p.owner_id')
      .addSelect('u.status', 'author_status')
      .where(where, params)
      .getRawAndEntities();
    const project = row.entities[0];
    if (!project) throw new ServiceError(ErrorCode.PROGRAM_NOT_FOUND);
    return { project, authorStatus: row.raw[0].author_status };
  }
}
