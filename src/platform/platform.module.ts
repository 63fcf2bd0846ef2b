import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlatformAnnouncement } from './platform-announcement.entity';
import { PlatformInterface } from './platform-interface.entity';
import { PlatformSettings } from './platform-settings.entity';
import { PlatformController } from './platform.controller';
import { PlatformService } from './platform.service';

@Module({
  imports: [TypeOrmModule.forFeature([PlatformSettings, PlatformInterface, PlatformAnnouncement])],
  controllers: [PlatformController],
  providers: [PlatformService],
  exports: [PlatformService],
})
export class PlatformModule {}
