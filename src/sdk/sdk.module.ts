import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { AppUsersModule } from '../app-users/app-users.module';
import { CardsModule } from '../cards/cards.module';
import { SessionsModule } from '../sessions/sessions.module';
import { StandardModule } from '../standard/standard.module';
import { VersionsModule } from '../versions/versions.module';
import { SdkCardsController } from './sdk-cards.controller';
import { SdkCardsService } from './sdk-cards.service';
import { SdkUsersController } from './sdk-users.controller';
import { VersionCheckController } from './version-check.controller';

/**
 * The SDK v1 family (standard envelope): card login with sessions and heartbeats, offline checkout,
 * program users with sessions and heartbeats, and the version check. HMAC-signed JSON, or a
 * session Bearer on heartbeats.
 */
@Module({
  imports: [AccessModule, CardsModule, SessionsModule, AppUsersModule, VersionsModule, StandardModule],
  controllers: [SdkCardsController, SdkUsersController, VersionCheckController],
  providers: [SdkCardsService],
})
export class SdkModule {}
