import { Module } from '@nestjs/common';
import { CardsModule } from '../cards/cards.module';
import { ProjectsModule } from '../projects/projects.module';
import { AgentCardsController } from './agent-cards.controller';
import { AgentCardsService } from './agent-cards.service';
import { AgentsController } from './agents.controller';
import { AgentsService } from './agents.service';
import { LedgerCheckController } from './ledger-check.controller';

/** Agents (resellers), their ledger and their own view of cards (decisions §19; docs/commerce.md). */
@Module({
  imports: [CardsModule, ProjectsModule],
  // The agent's own routes (`/agents/me/...`) first: registered before `/agents/:id`.
  controllers: [AgentCardsController, AgentsController, LedgerCheckController],
  providers: [AgentsService, AgentCardsService],
})
export class AgentsModule {}
