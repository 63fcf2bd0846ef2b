import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { AdminAuth, AdminRoles } from '../admin-kernel/admin-auth.decorator';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ApiAnswer } from '../http/openapi/api-contract';
import { LedgerCheckView } from './agent.view';
import { AgentLedgerRepository } from './agent-ledger.repository';

/**
 * The doctor's question for money (decisions §19): does every agent's balance equal the sum of its
 * ledger, and does every entry that names an order agree with it (so no money left without one)?
 */
@ApiTags('admin: agents')
@Envelope('admin')
@AdminAuth()
@AdminRoles('platform_admin')
@Controller('admin/v1/platform/ledger-check')
export class LedgerCheckController {
  constructor(private readonly dataSource: DataSource) {}

  /** Read in one snapshot (REPEATABLE READ), so a change committing meanwhile is seen whole or not at all. */
  @Get()
  @ApiOperation({
    summary:
      "Check that every agent balance equals the sum of its ledger entries and every order's entries agree with the order (severity ok, or fail with what differs)",
  })
  @ApiAnswer(LedgerCheckView)
  async check(): Promise<LedgerCheckView> {
    return this.dataSource.transaction('REPEATABLE READ', async (em) => {
      const ledger = AgentLedgerRepository.in(em);
      const mismatches = await ledger.balanceMismatches();
      const orderMismatches = await ledger.orderMismatches();
      const counts = await ledger.counts();
      return {
        severity: mismatches.length || orderMismatches.length ? 'fail' : 'ok',
        agents: counts.agents,
        entries: counts.entries,
        orders: counts.orders,
        mismatches,
        order_mismatches: orderMismatches,
      };
    });
  }
}
