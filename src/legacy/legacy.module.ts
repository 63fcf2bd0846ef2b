import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { AppUsersModule } from '../app-users/app-users.module';
import { CardsModule } from '../cards/cards.module';
import { FilesModule } from '../files/files.module';
import { LegacyAggregateController } from './aggregate/legacy-aggregate.controller';
import { LegacyAggregateService } from './aggregate/legacy-aggregate.service';
import { LegacyCardsController } from './cards/legacy-cards.controller';
import { LegacyCardsService } from './cards/legacy-cards.service';
import { LegacyInfoModule } from './info/legacy-info.module';
import { LegacyProgramGuard } from './legacy-program.guard';
import { CompatUsersController } from './users/compat-users.controller';

/**
 * Legacy V1 client routes (legacy envelope): the card routes, the state checks, the compatibility
 * program-user routes and the aggregate entry with its aliases, MD5 parameter signature and
 * transport encryption.
 */
@Module({
  imports: [AccessModule, CardsModule, AppUsersModule, FilesModule, LegacyInfoModule],
  controllers: [LegacyCardsController, LegacyAggregateController, CompatUsersController],
  providers: [LegacyProgramGuard, LegacyCardsService, LegacyAggregateService],
})
export class LegacyModule {}
