import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { AdminAuth, AdminRoles } from '../admin-auth/admin-auth.decorator';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ApiAnswer } from '../http/openapi/api-contract';
import { LedgerCheckView } from './agent.view';
import { LEDGER_MISMATCHES_SQL } from './ledger';

/** The doctor's question for money (decisions §19): does every agent's balance equal the sum of its ledger? */
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
    summary: 'Check that every agent balance equals the sum of its ledger entries (severity ok, or fail with the agents)',
  })
  @ApiAnswer(LedgerCheckView)
  async check(): Promise<LedgerCheckView> {
    return this.dataSource.transaction('REPEATABLE READ', async (em) => {
      // Raw: a reconciliation query over ledger and balances (no entities) in one snapshot.
      const mismatches = ((await em.query(LEDGER_MISMATCHES_SQL)) as Array<Record<string, unknown>>).map((r) => ({
        agent_id: r.agent_id as string,
        balance_cents: Number(r.balance_cents),
        ledger_cents: Number(r.ledger_cents),
        entries: Number(r.entries),
      }));
      // Raw: counts over tables without entities, in the same snapshot.
      const [counts] = (await em.query(
        `SELECT (SELECT count(*) FROM agents)::int AS agents, (SELECT count(*) FROM agent_ledger)::int AS entries`,
      )) as Array<{
        agents: number;
        entries: number;
      }>;
      return { severity: mismatches.length ? 'fail' : 'ok', agents: counts.agents, entries: counts.entries, mismatches };
    });
  }
}
