import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AdminPrincipal, isPlatformAdmin } from '../admin-kernel/admin-principal';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { Project } from './project.entity';

/**
 * The one tenant rule of the admin API: a platform admin reaches every project, an author only its
 * own, an API key only the projects it is limited to; anything else is PROJECT_NOT_FOUND (404),
 * exactly like a project that does not exist.
 */
@Injectable()
export class ProjectAccess {
  constructor(@InjectRepository(Project) private readonly projects: Repository<Project>) {}

  async find(actor: AdminPrincipal, id: string): Promise<Project> {
    // An API key limited to projects sees no other, its owner's included (decisions §19).
    if (actor.apiKey?.projectIds && !actor.apiKey.projectIds.includes(id)) throw new ServiceError(ErrorCode.PROJECT_NOT_FOUND);
    const project = await this.projects.findOneBy(isPlatformAdmin(actor) ? { id } : { id, ownerId: actor.id });
    if (!project) throw new ServiceError(ErrorCode.PROJECT_NOT_FOUND);
    return project;
  }
}
