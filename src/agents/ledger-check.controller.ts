import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { AdminAuth, AdminRoles } from '../admin-auth/admin-auth.decorator';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ApiAnswer } from '../http/openapi/api-contract';
import { LedgerCheckView } from './agent.view';
import { LEDGER_MISMATCHES_SQL, ORDER_MISMATCHES_SQL } from './ledger';

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
      // Raw: a reconciliation query over ledger and balances (no entities) in one snapshot.
      const mismatches = ((await em.query(LEDGER_MISMATCHES_SQL)) as Array<Record<string, unknown>>).map((r) => ({
        agent_id: r.agent_id as string,
        balance_cents: Number(r.balance_cents),
        ledger_cents: Number(r.ledger_cents),
        entries: Number(r.entries),
      }));
      // Raw: the entries of each order against the order, over tables without entities, in the same snapshot.
      const orderMismatches = ((await em.query(ORDER_MISMATCHES_SQL)) as Array<Record<string, unknown>>).map((r) => ({
        order_id: r.order_id as string,
        reference: (r.reference as string | null) ?? null,
        kind: r.kind as string,
        agent_id: (r.agent_id as string | null) ?? null,
        expected_cents: r.expected_cents === null ? null : Number(r.expected_cents),
        ledger_cents: Number(r.ledger_cents),
      }));
      // Raw: counts over tables without entities, in the same snapshot.
      const [counts] = (await em.query(
        `SELECT (SELECT count(*) FROM agents)::int AS agents, (SELECT count(*) FROM agent_ledger)::int AS entries,
          (SELECT count(*) FROM orders)::int AS orders`,
      )) as Array<{ agents: number; entries: number; orders: number }>;
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
