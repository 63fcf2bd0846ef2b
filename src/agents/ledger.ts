import { EntityManager } from 'typeorm';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';

export const LEDGER_KINDS = ['credit', 'debit', 'refund', 'commission', 'clawback'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** The kinds that take money away: their amounts are negative, the others' positive. */
const OUTGOING: ReadonlySet<LedgerKind> = new Set(['debit', 'clawback']);

export interface LedgerChange {
  agentId: string;
  kind: LedgerKind;
  /** How much, in cents, always positive: the kind says which way it goes. */
  cents: number;
  actorId: string | null;
  note?: string | null;
  orderId?: string | null;
  batchId?: string | null;
}

/**
 * One balance change and its entry, in the caller's transaction: a single conditional UPDATE that
 * refuses to go below zero (after a lock wait PostgreSQL re-checks it against the newest balance,
 * so no concurrent change is lost or overdrawn), then the entry with the balance it left. Refused:
 * INSUFFICIENT_BALANCE, and the caller's transaction rolls back whatever it did before.
 * Answers the balance after.
 */
export async function changeBalance(em: EntityManager, change: LedgerChange): Promise<number> {
  if (!Number.isSafeInteger(change.cents) || change.cents <= 0)
    throw new Error(`a ledger change needs positive whole cents, got ${change.cents}`);
  const delta = OUTGOING.has(change.kind) ? -change.cents : change.cents;
  // Raw: a conditional UPDATE … RETURNING: the balance changes only if it stays at or above zero.
  const [rows] = (await em.query(
    `UPDATE agents SET balance_cents = balance_cents + $2::bigint WHERE id = $1 AND balance_cents + $2::bigint >= 0 RETURNING balance_cents`,
    [change.agentId, delta],
  )) as [Array<{ balance_cents: string }>, number];
  if (rows.length === 0) {
    // Raw: agents has no entity; read only to say why the update above refused.
    const [agent] = (await em.query(`SELECT balance_cents FROM agents WHERE id = $1`, [change.agentId])) as Array<{
      balance_cents: string;
    }>;
    if (!agent) throw new Error(`agent ${change.agentId} is gone`);
    throw new ServiceError(ErrorCode.INSUFFICIENT_BALANCE, undefined, {
      details: { agent_id: change.agentId, balance_cents: Number(agent.balance_cents), needed_cents: change.cents },
    });
  }
  const after = Number(rows[0].balance_cents);
  // Raw: agent_ledger has no entity; written in the same transaction as the balance.
  await em.query(
    `INSERT INTO agent_ledger (agent_id, kind, amount_cents, balance_after_cents, order_id, batch_id, note, actor_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      change.agentId,
      change.kind,
      delta,
      after,
      change.orderId ?? null,
      change.batchId ?? null,
      change.note ?? null,
      change.actorId,
    ],
  );
  return after;
}

/**
 * Locks the balances of several agents in one order (by id) before a transaction changes more
 * than one of them (an order and its parent's commission, a parent's credit, a refund and its
 * clawback): two such transactions then never wait on each other in opposite orders.
 */
export async function lockBalances(em: EntityManager, agentIds: Array<string | null | undefined>): Promise<void> {
  const ids = [...new Set(agentIds.filter((id): id is string => Boolean(id)))].sort();
  // NO KEY UPDATE, the lock the balance UPDATE takes anyway: an order's row referencing the agent
  // holds KEY SHARE on it, which FOR UPDATE would wait on, crosswise with a twin order.
  if (ids.length > 1) await em.query(`SELECT id FROM agents WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`, [ids]);
}

/** Every agent whose balance differs from the sum of its entries (the ledger check): none, always. */
export const LEDGER_MISMATCHES_SQL = `
  SELECT a.id AS agent_id, a.balance_cents, coalesce(l.total, 0) AS ledger_cents, coalesce(l.entries, 0) AS entries
  FROM agents a
  LEFT JOIN (SELECT agent_id, sum(amount_cents) AS total, count(*) AS entries FROM agent_ledger GROUP BY agent_id) l ON l.agent_id = a.id
  WHERE a.balance_cents <> coalesce(l.total, 0)
  ORDER BY a.id`;

/**
 * Every order whose ledger entries differ from what the order says (its total debited from its
 * agent, the commission paid to the parent, and the refunds and clawbacks of its refunded cards),
 * and every entry naming an order that does not exist: none, always. Orders outlive their project.
 */
export const ORDER_MISMATCHES_SQL = `
  WITH entries AS (
    SELECT order_id, kind, agent_id, sum(abs(amount_cents)) AS cents FROM agent_ledger
    WHERE order_id IS NOT NULL GROUP BY order_id, kind, agent_id
  ), expected AS (
    SELECT o.id AS order_id, k.kind, k.agent_id, k.cents FROM orders o
    CROSS JOIN LATERAL (VALUES
      ('debit', o.agent_id, o.total_cents),
      ('commission', o.commission_agent_id, o.commission_unit_cents * o.count),
      ('refund', o.agent_id, o.unit_price_cents * o.refunded_count),
      ('clawback', o.commission_agent_id, o.commission_unit_cents * o.refunded_count)
    ) AS k(kind, agent_id, cents)
    WHERE o.agent_id IS NOT NULL
  )
  SELECT coalesce(x.order_id, e.order_id) AS order_id, o.order_id AS reference, coalesce(x.kind, e.kind) AS kind,
    coalesce(x.agent_id, e.agent_id) AS agent_id, x.cents AS expected_cents, coalesce(e.cents, 0) AS ledger_cents
  FROM expected x
  FULL JOIN entries e ON e.order_id = x.order_id AND e.kind = x.kind AND e.agent_id = x.agent_id
  LEFT JOIN orders o ON o.id = coalesce(x.order_id, e.order_id)
  WHERE CASE WHEN x.order_id IS NULL THEN true ELSE x.cents <> coalesce(e.cents, 0) END
  ORDER BY 1, 3`;
