import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { INTERFACE_NAMES, isInterfaceName } from '../platform/interface-names';
import { ProgramCache } from '../core/cache/program-cache';
import { PlatformService, unknownInterface } from '../platform/platform.service';
import { ProjectAccess } from './project-access';
import { ProjectInterfaceDto } from './project.dto';
import { ProjectInterface } from './project-interface.entity';

export class ProjectInterfaceView {
  @ApiProperty({ enum: INTERFACE_NAMES }) name!: string;
  @ApiProperty() authorized!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'calls per day; null: unlimited' }) daily_quota!: number | null;
  @ApiProperty({ description: 'the interface is switched on platform-wide' }) platform_enabled!: boolean;
}

/** Per-project interface authorization and daily quota, set by platform admins, readable by the owner. */
@Injectable()
export class ProjectInterfacesService {
  constructor(
    @InjectRepository(ProjectInterface) private readonly rows: Repository<ProjectInterface>,
    private readonly access: ProjectAccess,
    private readonly platform: PlatformService,
    private readonly programCache: ProgramCache,
  ) {}

  async list(actor: AdminPrincipal, projectId: string): Promise<{ items: ProjectInterfaceView[]; total: number }> {
    const project = await this.access.find(actor, projectId);
    const items = await this.itemsOf(project.id);
    return { items, total: items.length };
  }

  /** Every interface of a project (found and access-checked by the caller), in canonical order. */
  async itemsOf(projectId: string): Promise<ProjectInterfaceView[]> {
    const [rows, platform] = await Promise.all([this.rows.findBy({ projectId }), this.platform.interfaceStatus()]);
    return INTERFACE_NAMES.map((name) => {
      const row = rows.find((r) => r.name === name);
      return {
        name,
        authorized: row?.authorized ?? true,
        daily_quota: row?.dailyQuota ?? null,
        platform_enabled: platform[name],
      };
    });
  }

  async set(actor: AdminPrincipal, projectId: string, name: string, input: ProjectInterfaceDto): Promise<ProjectInterfaceView> {
    if (!isInterfaceName(name)) throw unknownInterface(name);
    const project = await this.access.find(actor, projectId);
    const dailyQuota = input.daily_quota ?? null;
    await this.rows.upsert({ projectId: project.id, name, authorized: input.authorized, dailyQuota }, ['projectId', 'name']);
    await this.programCache.invalidate(project.programId);
    const platform = await this.platform.interfaceStatus();
    return { name, authorized: input.authorized, daily_quota: dailyQuota, platform_enabled: platform[name] };
  }
}
