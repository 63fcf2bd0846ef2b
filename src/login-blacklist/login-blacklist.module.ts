import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectsModule } from '../projects/projects.module';
import { LoginBlacklistEntry } from './login-blacklist-entry.entity';
import { LoginBlacklistController } from './login-blacklist.controller';
import { LoginBlacklistService } from './login-blacklist.service';

/** The admin resource of the login blacklist; client routes apply it through the interface gate (AccessModule). */
@Module({
  imports: [TypeOrmModule.forFeature([LoginBlacklistEntry]), ProjectsModule],
  controllers: [LoginBlacklistController],
  providers: [LoginBlacklistService],
})
export class LoginBlacklistModule {}
