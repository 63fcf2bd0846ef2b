import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ClientCall } from '../access/client-call';
import { InterfaceGate } from '../access/interface-gate';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { Page, PageQuery, pageOf } from '../common/paging';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { isForeignKeyViolation, isUniqueViolation } from '../database/pg-errors';
import { FilesService } from '../files/files.service';
import { ProjectAccess } from '../projects/project-access';
import { CreateVersionDto, UpdateVersionDto } from './version.dto';
import { AppVersion } from './version.entity';
import { compareVersions, parseVersion, VERSION_RULE } from './version-order';
import { toVersionView, VersionView } from './version.view';

/** What a client's version check answers (SDK `/api/v1/apps/version` and legacy `/api/latest_version`). */
export class VersionCheck {
  @ApiProperty({ type: String, nullable: true, description: 'null: the program has no version yet' }) latest_version!:
    string | null;
  @ApiProperty() update_available!: boolean;
  @ApiProperty({ description: 'the client must update before it goes on' }) force_update!: boolean;
  @ApiProperty({ type: String, nullable: true }) changelog!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'a signed download address or the external URL' }) download_url!:
    string | null;
}

/** Numeric order of the version column (parts of at most 9 digits always fit an integer). */
const NUMERIC_ORDER = "string_to_array(v.version, '.')::int[]";

/**
 * A program's versions (decisions §9) and the version check clients run against them. Versions
 * that compare equal (`1.2` and `1.2.0`) cannot coexist, so "the latest" is always one version.
 */
@Injectable()
export class VersionsService {
  constructor(
    @InjectRepository(AppVersion) private readonly versions: Repository<AppVersion>,
    private readonly access: ProjectAccess,
    private readonly files: FilesService,
    private readonly gate: InterfaceGate,
  ) {}

  /** A client's check: `version_check` authorization and quota for the call's family, then the check. */
  async clientCheck(call: ClientCall, clientVersion: string): Promise<VersionCheck> {
    await this.gate.admit(call, 'version_check');
    return this.check(call.program.project.id, clientVersion);
  }

  /**
   * The version check of one program, for every family (no gate here: callers admit first).
   * latest = the highest enabled version; update_available when it is newer than the client's;
   * force_update when any enabled version newer than the client's forces the update (so skipping
   * a forced release still forces); changelog and download address of the latest, the address
   * being its download_url or a freshly signed `/api/download/{file_id}` when it has a file.
   * A client version that is not one is BAD_REQUEST.
   */
  async check(projectId: string, clientVersion: string): Promise<VersionCheck> {
    if (!parseVersion(clientVersion)) {
      throw new ServiceError(ErrorCode.BAD_REQUEST, `version must be ${VERSION_RULE}`, {
        details: [`version must be ${VERSION_RULE}`],
      });
    }
    const enabled = await this.versions.find({
      where: { projectId, enabled: true },
      select: { id: true, version: true, forceUpdate: true },
    });
    let latest: AppVersion | undefined;
    let forced = false;
    for (const v of enabled) {
      if (!latest || compareVersions(v.version, latest.version) > 0) latest = v;
      if (v.forceUpdate && compareVersions(v.version, clientVersion) > 0) forced = true;
    }
    const row = latest ? await this.versions.findOneBy({ id: latest.id }) : null;
    if (!row) return { latest_version: null, update_available: false, force_update: false, changelog: null, download_url: null };
    return {
      latest_version: row.version,
      update_available: compareVersions(row.version, clientVersion) > 0,
      force_update: forced,
      changelog: row.changelog,
      download_url: row.downloadUrl ?? (row.fileId ? this.files.signedUrl(row.fileId) : null),
    };
  }

  async create(actor: AdminPrincipal, projectId: string, input: CreateVersionDto): Promise<VersionView> {
    const project = await this.access.find(actor, projectId);
    const row = this.versions.create({
      projectId: project.id,
      version: input.version,
      changelog: input.changelog ?? '',
      forceUpdate: input.force_update ?? false,
      enabled: input.enabled ?? true,
      fileId: input.file_id?.toLowerCase() ?? null,
      downloadUrl: input.download_url ?? null,
    });
    return toVersionView(await this.store(row));
  }

  /** Newest version first (numeric order). */
  async list(actor: AdminPrincipal, projectId: string, query: PageQuery): Promise<Page<VersionView>> {
    const project = await this.access.find(actor, projectId);
    const [rows, total] = await this.versions
      .createQueryBuilder('v')
      .where('v.project_id = :projectId', { projectId: project.id })
      .orderBy(NUMERIC_ORDER, 'DESC')
      .addOrderBy('v.id', 'DESC')
      .offset(query.skip)
      .limit(query.page_size)
      .getManyAndCount();
    return pageOf(rows.map(toVersionView), total, query);
  }

  async get(actor: AdminPrincipal, projectId: string, id: number): Promise<VersionView> {
    const project = await this.access.find(actor, projectId);
    return toVersionView(await this.find(project.id, id));
  }

  async update(actor: AdminPrincipal, projectId: string, id: number, input: UpdateVersionDto): Promise<VersionView> {
    const project = await this.access.find(actor, projectId);
    const row = await this.find(project.id, id);
    if (input.version !== undefined) row.version = input.version;
    if (input.changelog !== undefined) row.changelog = input.changelog;
    if (input.force_update !== undefined) row.forceUpdate = input.force_update;
    if (input.enabled !== undefined) row.enabled = input.enabled;
    if (input.file_id !== undefined) row.fileId = input.file_id?.toLowerCase() ?? null;
    if (input.download_url !== undefined) row.downloadUrl = input.download_url;
    return toVersionView(await this.store(row));
  }

  async remove(actor: AdminPrincipal, projectId: string, id: number): Promise<void> {
    const project = await this.access.find(actor, projectId);
    const { affected } = await this.versions.delete({ id, projectId: project.id });
    if (!affected) throw notFound();
  }

  /** Saves a new or changed version after the rules that span rows and tables. */
  private async store(row: AppVersion): Promise<AppVersion> {
    if (row.fileId !== null && row.downloadUrl !== null) {
      throw badRequest('give either file_id or download_url, not both (set the other to null)');
    }
    if (row.fileId !== null && !(await this.files.belongsTo(row.projectId, row.fileId))) {
      throw badRequest('file_id must be a file of this project');
    }
    const siblings = await this.versions.find({ where: { projectId: row.projectId }, select: { id: true, version: true } });
    const same = siblings.find((s) => s.id !== row.id && compareVersions(s.version, row.version) === 0);
    if (same) throw versionExists(row.version, same.version);
    try {
      return await this.versions.save(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw versionExists(row.version, row.version);
      if (isForeignKeyViolation(error)) throw badRequest('file_id must be a file of this project');
      throw error;
    }
  }

  private async find(projectId: string, id: number): Promise<AppVersion> {
    const row = await this.versions.findOneBy({ id, projectId });
    if (!row) throw notFound();
    return row;
  }
}

function notFound(): ServiceError {
  return new ServiceError(ErrorCode.VERSION_NOT_FOUND);
}

function badRequest(detail: string): ServiceError {
  return new ServiceError(ErrorCode.BAD_REQUEST, detail, { details: [detail] });
}

/** VERSION_EXISTS; the details name the stored version it equals (`1.2` equals `1.2.0`). */
function versionExists(version: string, existing: string): ServiceError {
  return new ServiceError(ErrorCode.VERSION_EXISTS, undefined, {
    details: [`version ${version} equals the existing version ${existing}`],
  });
}
