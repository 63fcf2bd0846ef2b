import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { Page, PageQuery, pageOf } from '../common/paging';
import { ProgramCache } from '../core/cache/program-cache';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { ProjectAccess } from '../projects/project-access';
import { Announcement } from './announcement.entity';
import { CreateAnnouncementDto, UpdateAnnouncementDto } from './announcement.dto';
import { AnnouncementView, toAnnouncementView } from './announcement.view';
import type { RequestMemo } from '../core/request-memo';

/** An author's announcements for one program (decisions §9); clients see the newest enabled one. */
@Injectable()
export class AnnouncementsService {
  constructor(
    @InjectRepository(Announcement) private readonly announcements: Repository<Announcement>,
    private readonly access: ProjectAccess,
    private readonly programCache: ProgramCache,
  ) {}

  /** What a client of this program is shown: its newest enabled announcement, or none. */
  latestEnabledFor(projectId: string): Promise<Announcement | null> {
    return this.announcements.findOne({ where: { projectId, enabled: true }, order: { id: 'DESC' } });
  }

  /** The content clients are shown, through the program cache (client hot path). */
  async clientText(program: { id: string; programId: string }, memo?: RequestMemo): Promise<string> {
    return this.programCache.through(
      program.programId,
      'announcement',
      async () => (await this.latestEnabledFor(program.id))?.content ?? '',
      memo,
    );
  }

  async create(actor: AdminPrincipal, projectId: string, input: CreateAnnouncementDto): Promise<AnnouncementView> {
    const project = await this.access.find(actor, projectId);
    const row = this.announcements.create({
      projectId: project.id,
      title: input.title,
      content: input.content,
      enabled: input.enabled ?? true,
    });
    const saved = await this.announcements.save(row);
    await this.programCache.invalidate(project.programId);
    return toAnnouncementView(saved);
  }

  /** Newest first. */
  async list(actor: AdminPrincipal, projectId: string, query: PageQuery): Promise<Page<AnnouncementView>> {
    const project = await this.access.find(actor, projectId);
    const [rows, total] = await this.announcements.findAndCount({
      where: { projectId: project.id },
      order: { id: 'DESC' },
      skip: query.skip,
      take: query.page_size,
    });
    return pageOf(rows.map(toAnnouncementView), total, query);
  }

  async get(actor: AdminPrincipal, projectId: string, id: number): Promise<AnnouncementView> {
    const project = await this.access.find(actor, projectId);
    return toAnnouncementView(await this.find(project.id, id));
  }

  async update(actor: AdminPrincipal, projectId: string, id: number, input: UpdateAnnouncementDto): Promise<AnnouncementView> {
    const project = await this.access.find(actor, projectId);
    const row = await this.find(project.id, id);
    if (input.title !== undefined) row.title = input.title;
    if (input.content !== undefined) row.content = input.content;
    if (input.enabled !== undefined) row.enabled = input.enabled;
    const saved = await this.announcements.save(row);
    await this.programCache.invalidate(project.programId);
    return toAnnouncementView(saved);
  }

  async remove(actor: AdminPrincipal, projectId: string, id: number): Promise<void> {
    const project = await this.access.find(actor, projectId);
    const { affected } = await this.announcements.delete({ id, projectId: project.id });
    if (!affected) throw notFound();
    await this.programCache.invalidate(project.programId);
  }

  private async find(projectId: string, id: number): Promise<Announcement> {
    const row = await this.announcements.findOneBy({ id, projectId });
    if (!row) throw notFound();
    return row;
  }
}

function notFound(): ServiceError {
  return new ServiceError(ErrorCode.ANNOUNCEMENT_NOT_FOUND);
}
