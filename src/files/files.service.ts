import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { createReadStream, ReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { Repository } from 'typeorm';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { Page, PageQuery, pageOf } from '../common/paging';
import { clientTimes } from '../common/time';
import { AppConfig } from '../config/app-config';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { isForeignKeyViolation } from '../database/pg-errors';
import { ProjectAccess } from '../projects/project-access';
import { ProjectsService } from '../projects/projects.service';
import { DownloadSigner } from './download-signer';
import { StoredFile } from './file.entity';
import { FileView, toFileView } from './file.view';
import { receiveSingleFile } from './multipart-upload';

/** The multipart field that carries an upload. */
export const UPLOAD_FIELD = 'file';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a client is given to fetch a file (the legacy `get_file` action's `data`). */
export interface IssuedFileDownload {
  url: string;
  /** `YYYY-MM-DD HH:MM:SS` in APP_TIMEZONE. */
  expires_at: string;
  /** The same instant, ISO 8601 with the offset (clientTimes). */
  expires_at_iso: string;
  name: string;
  size: number;
  sha256: string;
}

/** An opened download: the file's record and, unless only its headers are wanted, its bytes. */
export interface OpenedDownload {
  file: StoredFile;
  length: number;
  stream: ReadStream | null;
}

/**
 * Files an author uploads for a program (decisions §9), stored under FILES_DIR as
 * `<project id>/<file id>`, and the signed addresses through which clients download them.
 */
@Injectable()
export class FilesService {
  private readonly logger = new Logger(FilesService.name);
  private readonly root: string;
  private readonly tempDir: string;

  constructor(
    @InjectRepository(StoredFile) private readonly files: Repository<StoredFile>,
    private readonly access: ProjectAccess,
    private readonly signer: DownloadSigner,
    private readonly config: AppConfig,
    projects: ProjectsService,
  ) {
    this.root = resolve(config.filesDir);
    this.tempDir = join(this.root, '.incoming');
    projects.onRemoved((projectId) => this.removeProjectBytes(projectId));
  }

  /** A deleted project's bytes. A failure is logged, not answered: the project itself is gone. */
  private async removeProjectBytes(projectId: string): Promise<void> {
    try {
      await rm(join(this.root, projectId), { recursive: true, force: true });
    } catch (error) {
      this.logger.warn(`Could not remove the stored files of deleted project ${projectId}: ${(error as Error).message}`);
    }
  }

  /** Streams the request's multipart `file` to disk, then records it; a failure leaves nothing behind. */
  async upload(actor: AdminPrincipal, projectId: string, request: IncomingMessage): Promise<FileView> {
    const project = await this.access.find(actor, projectId);
    const received = await receiveSingleFile(request, {
      field: UPLOAD_FIELD,
      maxBytes: this.config.FILE_MAX_BYTES,
      tempDir: this.tempDir,
    });
    const id = randomUUID();
    const storagePath = `${project.id}/${id}`;
    const target = this.absolute(storagePath);
    try {
      await mkdir(dirname(target), { recursive: true });
      await rename(received.tempPath, target);
    } catch (error) {
      await rm(received.tempPath, { force: true });
      throw error;
    }
    try {
      const row = this.files.create({
        id,
        projectId: project.id,
        name: received.name,
        size: received.size,
        sha256: received.sha256,
        storagePath,
        downloadCount: 0,
      });
      return toFileView(await this.files.save(row));
    } catch (error) {
      await rm(target, { force: true });
      if (isForeignKeyViolation(error)) throw new ServiceError(ErrorCode.PROJECT_NOT_FOUND);
      throw error;
    }
  }

  /** Newest first. */
  async list(actor: AdminPrincipal, projectId: string, query: PageQuery): Promise<Page<FileView>> {
    const project = await this.access.find(actor, projectId);
    const [rows, total] = await this.files.findAndCount({
      where: { projectId: project.id },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: query.skip,
      take: query.page_size,
    });
    return pageOf(rows.map(toFileView), total, query);
  }

  async get(actor: AdminPrincipal, projectId: string, fileId: string): Promise<FileView> {
    const project = await this.access.find(actor, projectId);
    return toFileView(await this.find(project.id, fileId));
  }

  /** Deletes the record, then the stored bytes; versions that pointed at it lose their file. */
  async remove(actor: AdminPrincipal, projectId: string, fileId: string): Promise<void> {
    const project = await this.access.find(actor, projectId);
    const file = await this.find(project.id, fileId);
    const { affected } = await this.files.delete({ id: file.id, projectId: project.id });
    if (!affected) throw notFound();
    await rm(this.absolute(file.storagePath), { force: true });
  }

  /** Whether `fileId` is a file of this project (a version may point only at its own project's files). */
  async belongsTo(projectId: string, fileId: string): Promise<boolean> {
    return UUID.test(fileId) && this.files.existsBy({ id: fileId.toLowerCase(), projectId });
  }

  /** A freshly signed download address of a file (no check that it exists). */
  signedUrl(fileId: string): string {
    return this.signer.issue(fileId).url;
  }

  /**
   * For the legacy `get_file` action: a signed address of one of this project's files with what the
   * client needs to check it. Another project's file, or an id that is not one, is FILE_NOT_FOUND.
   */
  async issueDownload(projectId: string, fileId: string): Promise<IssuedFileDownload> {
    const file = await this.find(projectId, fileId);
    const { url, expires } = this.signer.issue(file.id);
    return {
      url,
      ...clientTimes(this.config.APP_TIMEZONE, { expires_at: new Date(expires * 1000) }),
      name: file.name,
      size: file.size,
      sha256: file.sha256,
    };
  }

  /**
   * Opens a download for a signed address: 403 DOWNLOAD_ADDRESS_INVALID when `expires`/`sig` are missing,
   * tampered with or expired (checked before the file is looked up, so an address reveals nothing
   * without a valid signature), 404 FILE_NOT_FOUND when the file no longer exists. `count` (a GET, not a HEAD)
   * raises the file's download count; `withBody` false opens no stream.
   */
  async openDownload(
    fileId: string,
    expires: unknown,
    sig: unknown,
    options: { count: boolean; withBody: boolean },
  ): Promise<OpenedDownload> {
    const check = this.signer.check(fileId, expires, sig);
    if (check !== 'valid') {
      throw new ServiceError(ErrorCode.DOWNLOAD_ADDRESS_INVALID, undefined, { details: { reason: check } });
    }
    const file = await this.files.findOneBy({ id: fileId });
    if (!file) throw notFound();
    const path = this.absolute(file.storagePath);
    const { size } = await stat(path); // bytes missing under a record: a platform fault, logged with its id
    if (options.count) await this.files.increment({ id: file.id }, 'downloadCount', 1);
    return { file, length: size, stream: options.withBody ? createReadStream(path) : null };
  }

  private async find(projectId: string, fileId: string): Promise<StoredFile> {
    const file = UUID.test(fileId) ? await this.files.findOneBy({ id: fileId.toLowerCase(), projectId }) : null;
    if (!file) throw notFound();
    return file;
  }

  private absolute(storagePath: string): string {
    return join(this.root, ...storagePath.split('/'));
  }
}

function notFound(): ServiceError {
  return new ServiceError(ErrorCode.FILE_NOT_FOUND);
}
