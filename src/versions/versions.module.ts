import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { FilesModule } from '../files/files.module';
import { ProjectsModule } from '../projects/projects.module';
import { AppVersion } from './version.entity';
import { VersionsController } from './versions.controller';
import { VersionsService } from './versions.service';

/** A program's versions (admin API) and the version check every client family uses. */
@Module({
  imports: [TypeOrmModule.forFeature([AppVersion]), ProjectsModule, AccessModule, FilesModule],
  controllers: [VersionsController],
  providers: [VersionsService],
  exports: [VersionsService],
})
export class VersionsModule {}
