import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectsModule } from '../projects/projects.module';
import { RemoteVariable } from './remote-variable.entity';
import { RemoteVariablesController } from './remote-variables.controller';
import { RemoteVariablesService } from './remote-variables.service';

/** Remote variables (admin CRUD); the legacy `app_config` action reads them through the service. */
@Module({
  imports: [TypeOrmModule.forFeature([RemoteVariable]), ProjectsModule],
  controllers: [RemoteVariablesController],
  providers: [RemoteVariablesService],
  exports: [RemoteVariablesService],
})
export class RemoteVariablesModule {}
