import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { HotCache, PLATFORM_SCOPE } from '../../core/cache/hot-cache';
import { PlatformSettings } from '../../platform/platform-settings.entity';

/**
 * Whether the platform requires two-factor sign-in of every admin account. Read on every admin
 * request, so through the hot cache's platform scope, which a change of the settings invalidates.
 */
@Injectable()
export class TwoFactorPolicy {
  constructor(
    @InjectRepository(PlatformSettings) private readonly settings: Repository<PlatformSettings>,
    private readonly cache: HotCache,
  ) {}

  required(): Promise<boolean> {
    return this.cache.through(
      PLATFORM_SCOPE,
      'admin-two-factor-required',
      async () => (await this.settings.findOneByOrFail({ id: 1 })).adminTwoFactorRequired,
    );
  }
}
