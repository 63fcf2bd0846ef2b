import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlatformModule } from '../platform/platform.module';
import { ProjectAccess } from './project-access';
import { Project } from './project.entity';
import { ProjectInterface } from './project-interface.entity';
import { ProjectInterfacesService } from './project-interfaces.service';
import { ProjectsController } from './projects.controller';
import { ProjectsService } from './projects.service';

@Module({
  imports: [TypeOrmModule.forFeature([Project, ProjectInterface]), PlatformModule],
  controllers: [ProjectsController],
  providers: [ProjectsService, ProjectAccess, ProjectInterfacesService],
  exports: [ProjectsService, ProjectAccess, ProjectInterfacesService, TypeOrmModule],
})
export class ProjectsModule {}
