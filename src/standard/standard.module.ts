import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { CardsModule } from '../cards/cards.module';
import { SessionsModule } from '../sessions/sessions.module';
import { HmacGuard } from './hmac.guard';
import { SdkCardsController } from './sdk-cards.controller';
import { StandardCardsService } from './standard-cards.service';
import { V3Controller } from './v3.controller';
import { SessionBearerGuard } from '../sessions/session-bearer';

/** HTTP V3 and SDK v1 card routes (the standard envelope). */
@Module({
  imports: [AccessModule, CardsModule, SessionsModule],
  controllers: [V3Controller, SdkCardsController],
  providers: [StandardCardsService, HmacGuard, SessionBearerGuard],
  exports: [HmacGuard, SessionBearerGuard],
})
export class StandardModule {}
