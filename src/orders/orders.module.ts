import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentsModule } from '../agents/agents.module';
import { CardsModule } from '../cards/cards.module';
import { ProjectsModule } from '../projects/projects.module';
import { OrderRefundsModule } from './order-refunds';
import { Order } from './order.entity';
import { OrdersController } from './orders.controller';
import { OrderPlacement } from './order-placement';
import { OrdersService } from './orders.service';
import { SalesDailyCount } from '../sales/sales-daily-count.entity';

/** Orders: cards bought from a card type, paid from an agent's balance (decisions §19; docs/commerce.md). */
@Module({
  imports: [TypeOrmModule.forFeature([Order, SalesDailyCount]), AgentsModule, CardsModule, ProjectsModule, OrderRefundsModule],
  controllers: [OrdersController],
  providers: [OrdersService, OrderPlacement],
  exports: [OrderPlacement],
})
export class OrdersModule {}
