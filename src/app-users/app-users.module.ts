import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { ProjectsModule } from '../projects/projects.module';
import { SessionsModule } from '../sessions/sessions.module';
import { AppUser } from './app-user.entity';
import { AppUsersAdminController } from './app-users-admin.controller';
import { AppUsersAdminService } from './app-users-admin.service';
import { AppUsersService } from './app-users.service';

/** Program users (decisions §6): the rules the SDK and legacy routes share, and their administration. */
@Module({
  imports: [TypeOrmModule.forFeature([AppUser]), AccessModule, ProjectsModule, SessionsModule],
  controllers: [AppUsersAdminController],
  providers: [AppUsersService, AppUsersAdminService],
  exports: [AppUsersService],
})
export class AppUsersModule {}
