import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlatformModule } from '../platform/platform.module';
import { SigningModule } from '../signing/signing.module';
import { ProjectInterface } from '../projects/project-interface.entity';
import { Project } from '../projects/project.entity';
import { ClientProgramDirectory } from './client-program';
import { DailyQuota } from './daily-quota';
import { InterfaceGate } from './interface-gate';
import { LoginBlacklist } from '../login-blacklist/login-blacklist';
import { LoginBlacklistEntry } from '../login-blacklist/login-blacklist-entry.entity';

/** What every client family uses to find a program and admit a request to an interface. */
@Module({
  imports: [TypeOrmModule.forFeature([Project, ProjectInterface, LoginBlacklistEntry]), PlatformModule, SigningModule],
  providers: [ClientProgramDirectory, DailyQuota, InterfaceGate, LoginBlacklist],
  exports: [ClientProgramDirectory, DailyQuota, InterfaceGate],
})
export class AccessModule {}
