import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { CardsModule } from '../cards/cards.module';
import { PortalController } from './portal.controller';
import { PortalGuard } from './portal.guard';
import { PortalLimits } from './portal-limits';

/** The card-holder portal's calls (decisions §14). */
@Module({
  imports: [AccessModule, CardsModule],
  controllers: [PortalController],
  providers: [PortalGuard, PortalLimits],
})
export class PortalModule {}
