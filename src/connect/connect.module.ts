import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { AnnouncementsModule } from '../announcements/announcements.module';
import { CardsModule } from '../cards/cards.module';
import { ProjectsModule } from '../projects/projects.module';
import { ConnectCustomization } from './connect-customization.entity';
import { ConnectProgramGuard } from './connect-program.guard';
import { ConnectController } from './connect.controller';
import { ConnectService } from './connect.service';
import { CustomizationController } from './customization/customization.controller';
import { CustomizationService } from './customization/customization.service';

@Module({
  imports: [TypeOrmModule.forFeature([ConnectCustomization]), AccessModule, CardsModule, AnnouncementsModule, ProjectsModule],
  controllers: [ConnectController, CustomizationController],
  providers: [ConnectService, CustomizationService, ConnectProgramGuard],
})
export class ConnectModule {}
