import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CardsModule } from '../cards/cards.module';
import { ProjectsModule } from '../projects/projects.module';
import { AgentCardsController } from './agent-cards.controller';
import { AgentCardsService } from './agent-cards.service';
import { AgentLedgerEntry } from './agent-ledger-entry.entity';
import { AgentPrice } from './agent-price.entity';
import { AgentProject } from './agent-project.entity';
import { Agent } from './agent.entity';
import { AgentPricesController } from './agent-prices.controller';
import { AgentPricesRepository } from './agent-prices.repository';
import { AgentPricesService } from './agent-prices.service';
import { AgentsController } from './agents.controller';
import { AgentsService } from './agents.service';
import { LedgerCheckController } from './ledger-check.controller';

/** Agents (resellers), their ledger and their own view of cards (decisions §19; docs/commerce.md). */
@Module({
  imports: [TypeOrmModule.forFeature([Agent, AgentProject, AgentLedgerEntry, AgentPrice]), CardsModule, ProjectsModule],
  // The agent's own routes (`/agents/me/...`) first: registered before `/agents/:id`.
  controllers: [AgentCardsController, AgentsController, AgentPricesController, LedgerCheckController],
  providers: [AgentsService, AgentCardsService, AgentPricesService, AgentPricesRepository],
  // Orders pay by the agents' prices.
  exports: [AgentPricesRepository],
})
export class AgentsModule {}
