import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Page, PageQuery, pageOf } from '../common/paging';
import { HotCache, PLATFORM_SCOPE } from '../core/cache/hot-cache';
import { ErrorCode } from '../core/errors/error-code';
import type { RequestMemo } from '../core/request-memo';
import { ServiceError } from '../core/errors/service-error';
import type { AdminPrincipal } from '../admin-kernel/admin-principal';
import { noteChange } from '../common/audit-note';
import { InterfaceName, INTERFACE_NAMES, isInterfaceName } from './interface-names';
import { PlatformAnnouncement } from './platform-announcement.entity';
import { PlatformInterface } from './platform-interface.entity';
import { PlatformSettings } from './platform-settings.entity';
import {
  CreatePlatformAnnouncementDto,
  PlatformSettingsDto,
  UpdatePlatformAnnouncementDto,
  UpdatePlatformSettingsDto,
} from './platform.dto';

export class PlatformSettingsView extends PlatformSettingsDto {
  @ApiProperty({ type: String, format: 'date-time' }) updated_at!: string;
}

export class PlatformInterfaceView {
  @ApiProperty({ enum: INTERFACE_NAMES }) name!: string;
  @ApiProperty() enabled!: boolean;
}

export class PlatformAnnouncementView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() title!: string;
  @ApiProperty() content!: string;
  @ApiProperty({ description: 'authors are shown only enabled ones' }) enabled!: boolean;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at!: string;
}

/** The hot-cache scope of the platform-wide values below. */
const CACHE_SCOPE = PLATFORM_SCOPE;

/**
 * Platform-wide settings, interface switches and operator announcements. Settings and switches are
 * read on client hot paths, so they are in the hot cache, invalidated on change.
 */
@Injectable()
export class PlatformService {
  constructor(
    @InjectRepository(PlatformSettings) private readonly settings: Repository<PlatformSettings>,
    @InjectRepository(PlatformInterface) private readonly interfaces: Repository<PlatformInterface>,
    @InjectRepository(PlatformAnnouncement) private readonly announcements: Repository<PlatformAnnouncement>,
    private readonly cache: HotCache,
  ) {}

  /** `memo`: the memo of the client request reading them on its hot path (hot-cache.ts), if any. */
  async getSettings(memo?: RequestMemo): Promise<PlatformSettingsView> {
    return this.cache.through(
      CACHE_SCOPE,
      'settings',
      async () => toSettingsView(await this.settings.findOneByOrFail({ id: 1 })),
      memo,
    );
  }

  async updateSettings(input: UpdatePlatformSettingsDto, actor?: AdminPrincipal): Promise<PlatformSettingsView> {
    const row = await this.settings.findOneByOrFail({ id: 1 });
    const before = toSettingsView(row);
    if (input.connect_opening_mode !== undefined) row.connectOpeningMode = input.connect_opening_mode;
    if (input.connect_min_level !== undefined) row.connectMinLevel = input.connect_min_level;
    if (input.legacy_metering_enabled !== undefined) row.legacyMeteringEnabled = input.legacy_metering_enabled;
    if (input.webhook_private_targets !== undefined) row.webhookPrivateTargets = input.webhook_private_targets;
    if (input.admin_two_factor_required !== undefined) row.adminTwoFactorRequired = input.admin_two_factor_required;
    const view = toSettingsView(await this.settings.save(row));
    await this.cache.invalidate(CACHE_SCOPE);
    if (actor) noteChange(actor, { before, after: view });
    return view;
  }

  /** Platform-wide status of every interface, by name. */
  async interfaceStatus(memo?: RequestMemo): Promise<Record<InterfaceName, boolean>> {
    return this.cache.through(
      CACHE_SCOPE,
      'interfaces',
      async () => {
        const rows = await this.interfaces.find();
        return Object.fromEntries(INTERFACE_NAMES.map((n) => [n, rows.find((r) => r.name === n)?.enabled ?? true])) as Record<
          InterfaceName,
          boolean
        >;
      },
      memo,
    );
  }

  async listInterfaces(): Promise<{ items: PlatformInterfaceView[]; total: number }> {
    const status = await this.interfaceStatus();
    const items = INTERFACE_NAMES.map((name) => ({ name, enabled: status[name] }));
    return { items, total: items.length };
  }

  async setInterfaceEnabled(name: string, enabled: boolean): Promise<PlatformInterfaceView> {
    if (!isInterfaceName(name)) throw unknownInterface(name);
    await this.interfaces.upsert({ name, enabled }, ['name']);
    await this.cache.invalidate(CACHE_SCOPE);
    return { name, enabled };
  }

  async createAnnouncement(input: CreatePlatformAnnouncementDto, createdBy: string): Promise<PlatformAnnouncementView> {
    const row = this.announcements.create({
      title: input.title,
      content: input.content,
      enabled: input.enabled ?? true,
      createdBy,
    });
    return toAnnouncementView(await this.announcements.save(row));
  }

  /** Newest first; an author is shown the enabled ones only, a platform admin every one. */
  async listAnnouncements(query: PageQuery, enabledOnly: boolean): Promise<Page<PlatformAnnouncementView>> {
    const [rows, total] = await this.announcements.findAndCount({
      where: enabledOnly ? { enabled: true } : {},
      order: { id: 'DESC' },
      skip: query.skip,
      take: query.page_size,
    });
    return pageOf(rows.map(toAnnouncementView), total, query);
  }

  async updateAnnouncement(id: number, input: UpdatePlatformAnnouncementDto): Promise<PlatformAnnouncementView> {
    const row = await this.announcements.findOneBy({ id });
    if (!row) throw new ServiceError(ErrorCode.ANNOUNCEMENT_NOT_FOUND);
    if (input.title !== undefined) row.title = input.title;
    if (input.content !== undefined) row.content = input.content;
    if (input.enabled !== undefined) row.enabled = input.enabled;
    return toAnnouncementView(await this.announcements.save(row));
  }

  async removeAnnouncement(id: number): Promise<void> {
    const { affected } = await this.announcements.delete({ id });
    if (!affected) throw new ServiceError(ErrorCode.ANNOUNCEMENT_NOT_FOUND);
  }
}

export function unknownInterface(name: string): ServiceError {
  return new ServiceError(ErrorCode.INTERFACE_NOT_FOUND, undefined, { details: { name, allowed: INTERFACE_NAMES } });
}

function toSettingsView(row: PlatformSettings): PlatformSettingsView {
  return {
    connect_opening_mode: row.connectOpeningMode,
    connect_min_level: row.connectMinLevel,
    legacy_metering_enabled: row.legacyMeteringEnabled,
    webhook_private_targets: row.webhookPrivateTargets,
    admin_two_factor_required: row.adminTwoFactorRequired,
    updated_at: row.updatedAt.toISOString(),
  };
}

function toAnnouncementView(row: PlatformAnnouncement): PlatformAnnouncementView {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    enabled: row.enabled,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
