import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { FilesModule } from '../files/files.module';
import { ProjectsModule } from '../projects/projects.module';
import { StandardModule } from '../standard/standard.module';
import { AppVersion } from './version.entity';
import { VersionCheckController } from './version-check.controller';
import { VersionsController } from './versions.controller';
import { VersionsService } from './versions.service';

/** A program's versions (admin API) and the SDK version check; VersionsService.check serves legacy too. */
@Module({
  imports: [TypeOrmModule.forFeature([AppVersion]), ProjectsModule, AccessModule, FilesModule, StandardModule],
  controllers: [VersionsController, VersionCheckController],
  providers: [VersionsService],
  exports: [VersionsService],
})
export class VersionsModule {}
