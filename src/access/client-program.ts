import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AccountStatus } from '../admin-kernel/admin-user.entity';
import { PROGRAM_ID_PATTERN } from '../common/field-rules';
import { ProgramCache } from '../core/cache/program-cache';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { noteClientRequest, type RequestContext } from '../http/request-context';
import { InterfaceName } from '../platform/interface-names';
import { ProjectInterface } from '../projects/project-interface.entity';
import { Project } from '../projects/project.entity';
import { ResponseSigner } from '../signing/response-signer';
import { ActiveSigningKey, SigningKeysService } from '../signing/signing-keys.service';

/** The project settings a client route reads (JSON-safe, so it can live in the shared cache). */
export type ProgramSettings = Omit<Project, 'createdAt' | 'updatedAt' | 'ownerId' | 'name'>;

export interface InterfaceAuthorization {
  authorized: boolean;
  dailyQuota: number | null;
}

/** A program as a client route sees it: settings, its author's status and interface authorizations. */
export interface ClientProgram {
  project: ProgramSettings;
  authorStatus: AccountStatus;
  /** Rows set by the platform admin; an interface without one is authorized without quota. */
  authorizations: Partial<Record<InterfaceName, InterfaceAuthorization>>;
  /** The key that signs this program's answers (decisions §15). */
  signingKey: ActiveSigningKey | null;
}

const PROGRAM_ID_BY_PROJECT_LIMIT = 10_000;
/** A UUID, with or without dashes: the shape of an internal project key. */
const INTERNAL_KEY_LIKE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/**
 * Finds the program behind a public program ID (never an internal project key), through the
 * shared program cache: one client request costs no query here while the program is cached.
 * Finding it marks the request's answer to be signed (decisions §15): refusals included, and
 * nothing answered before the program is known.
 */
@Injectable()
export class ClientProgramDirectory {
  /** project id → program id never changes, so this map needs no invalidation. */
  private readonly programIds = new Map<string, string>();

  constructor(
    @InjectRepository(Project) private readonly projects: Repository<Project>,
    @InjectRepository(ProjectInterface) private readonly authorizations: Repository<ProjectInterface>,
    private readonly cache: ProgramCache,
    private readonly signingKeys: SigningKeysService,
    private readonly signer: ResponseSigner,
  ) {}

  /** `request`: the client request that names the program, whose answer it signs from here on. */
  async byProgramId(programId: string, request?: RequestContext): Promise<ClientProgram> {
    const program = await this.unsignedByProgramId(programId, request);
    // From here on the request's answer, whatever it is, is signed with the program's key.
    this.signer.signAnswer(request, program.project.responseSigning, program.signingKey);
    return program;
  }

  /**
   * The same lookup, leaving the answer unsigned: the portal's (decisions §14, §23), whose refusals
   * must not tell a known program from an unknown one, and whose page checks no signature.
   */
  async unsignedByProgramId(programId: string, request?: RequestContext): Promise<ClientProgram> {
    if (!PROGRAM_ID_PATTERN.test(programId)) throw new ServiceError(ErrorCode.PROGRAM_NOT_FOUND);
    const program = await this.cache.through(programId, 'program', () => this.load(programId), request);
    if (!program) throw new ServiceError(ErrorCode.PROGRAM_NOT_FOUND);
    // From here on the request belongs to this project's request log (decisions §22).
    noteClientRequest(request, { projectId: program.project.id });
    return program;
  }

  /**
   * The `app` field of a client request (decisions §3): missing is APP_REQUIRED, an internal
   * project key is INTERNAL_KEY_NOT_ACCEPTED, anything else must be a known public program ID.
   */
  async byAppField(app: unknown, request?: RequestContext): Promise<ClientProgram> {
    const value = typeof app === 'string' ? app.trim() : '';
    if (!value) throw new ServiceError(ErrorCode.APP_REQUIRED);
    if (INTERNAL_KEY_LIKE.test(value)) throw new ServiceError(ErrorCode.INTERNAL_KEY_NOT_ACCEPTED);
    return this.byProgramId(value, request);
  }

  /** The program of a record that holds the internal key (a session). */
  async byProjectId(projectId: string, request?: RequestContext): Promise<ClientProgram> {
    let programId = this.programIds.get(projectId);
    if (!programId) {
      const row = await this.projects.findOne({ where: { id: projectId }, select: { programId: true } });
      if (!row) throw new ServiceError(ErrorCode.PROGRAM_NOT_FOUND);
      if (this.programIds.size >= PROGRAM_ID_BY_PROJECT_LIMIT) this.programIds.clear();
      this.programIds.set(projectId, (programId = row.programId));
    }
    return this.byProgramId(programId, request);
  }

  private async load(programId: string): Promise<ClientProgram | null> {
    const row = await this.projects
      .createQueryBuilder('p')
      .innerJoin('admin_users', 'u', 'u.id = p.owner_id')
      .addSelect('u.status', 'author_status')
      .where('p.program_id = :programId', { programId })
      .getRawAndEntities();
    const project = row.entities[0];
    if (!project) return null;
    const { createdAt: _c, updatedAt: _u, ownerId: _o, name: _n, ...settings } = project;
    const rows = await this.authorizations.findBy({ projectId: project.id });
    const authorizations = Object.fromEntries(rows.map((r) => [r.name, { authorized: r.authorized, dailyQuota: r.dailyQuota }]));
    return {
      project: settings,
      authorStatus: row.raw[0].author_status,
      authorizations,
      signingKey: await this.signingKeys.activeKey(project.id),
    };
  }
}
