import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { ProjectsModule } from '../projects/projects.module';
import { SessionsModule } from '../sessions/sessions.module';
import { StandardModule } from '../standard/standard.module';
import { AppUser } from './app-user.entity';
import { AppUsersAdminController } from './app-users-admin.controller';
import { AppUsersAdminService } from './app-users-admin.service';
import { AppUsersService } from './app-users.service';
import { LegacyProgramGuard } from '../legacy/legacy-program.guard';
import { CompatUsersController } from './compat-users.controller';
import { SdkUsersController } from './sdk-users.controller';

/** Program users (decisions §6): SDK and compatibility client routes, and their administration. */
@Module({
  imports: [TypeOrmModule.forFeature([AppUser]), AccessModule, ProjectsModule, SessionsModule, StandardModule],
  controllers: [SdkUsersController, CompatUsersController, AppUsersAdminController],
  providers: [AppUsersService, AppUsersAdminService, LegacyProgramGuard],
  exports: [AppUsersService],
})
export class AppUsersModule {}
