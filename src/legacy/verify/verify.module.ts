import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../../access/access.module';
import { AdminUser } from '../../admin-kernel/admin-user.entity';
import { PlatformModule } from '../../platform/platform.module';
import { ProjectsModule } from '../../projects/projects.module';
import { AuthorQuotas } from './author-quotas';
import { BlacklistController } from './blacklist.controller';
import { BlacklistEntry } from './blacklist-entry.entity';
import { BlacklistService } from './blacklist.service';
import { LicenceSite } from './licence-site.entity';
import { SitesController } from './sites.controller';
import { SitesService } from './sites.service';
import { VerifyController } from './verify.controller';
import { VerifyService } from './verify.service';

/** Licence-file core verification (`/api/verify`) with its authorized sites and blacklists. */
@Module({
  imports: [TypeOrmModule.forFeature([LicenceSite, BlacklistEntry, AdminUser]), AccessModule, PlatformModule, ProjectsModule],
  controllers: [VerifyController, SitesController, BlacklistController],
  providers: [VerifyService, AuthorQuotas, SitesService, BlacklistService],
  exports: [AuthorQuotas],
})
export class VerifyModule {}
