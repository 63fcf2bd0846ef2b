import { DataSource, EntityManager } from 'typeorm';
import { AgentLedgerEntry } from './agent-ledger-entry.entity';
import { Agent } from './agent.entity';

/** A ledger entry as an agent's ledger page shows it: with its order's own reference. */
export type LedgerEntryWithOrder = AgentLedgerEntry & { orderReference: string | null };

/** An agent whose balance differs from the sum of its entries. */
export interface BalanceMismatch {
  agent_id: string;
  balance_cents: number;
  ledger_cents: number;
  entries: number;
}

/** An order whose entries of one kind and agent differ from what the order says (or an entry naming no order). */
export interface OrderMismatch {
  order_id: string;
  reference: string | null;
  kind: string;
  agent_id: string | null;
  expected_cents: number | null;
  ledger_cents: number;
}

/**
 * The agents' balances and their ledger (`agents.balance_cents`, `agent_ledger`): every statement
 * that changes or checks money, in the caller's transaction (`in(em)`) where it is one.
 * Made per use with `in`, on the data source or a transaction's manager.
 */
export class AgentLedgerRepository {
  constructor(private readonly em: EntityManager) {}

  static in(db: EntityManager | DataSource): AgentLedgerRepository {
    return new AgentLedgerRepository(db instanceof EntityManager ? db : db.manager);
  }

  /** The balance after adding `delta`, or null when that would go below zero (and nothing changed). */
  async addToBalance(agentId: string, delta: number): Promise<number | null> {
    // Raw: a conditional UPDATE … RETURNING: the balance changes only if it stays at or above zero (re-checked after a lock wait).
    const [rows] = (await this.em.query(
      `UPDATE agents SET balance_cents = balance_cents + $2::bigint WHERE id = $1 AND balance_cents + $2::bigint >= 0 RETURNING balance_cents`,
      [agentId, delta],
    )) as [Array<{ balance_cents: string }>, number];
    return rows.length ? Number(rows[0].balance_cents) : null;
  }

  /** Null: no such agent. */
  async balanceOf(agentId: string): Promise<number | null> {
    const agent = await this.em.findOne(Agent, { select: { id: true, balanceCents: true }, where: { id: agentId } });
    return agent?.balanceCents ?? null;
  }

  async append(
    entry: Pick<
      AgentLedgerEntry,
      'agentId' | 'kind' | 'amountCents' | 'balanceAfterCents' | 'orderId' | 'batchId' | 'note' | 'actorId'
    >,
  ): Promise<void> {
    await this.em.insert(AgentLedgerEntry, entry);
  }

  /**
   * Locks these agents' rows in id order. NO KEY UPDATE, the lock the balance UPDATE takes anyway:
   * an order's row referencing the agent holds KEY SHARE on it, which FOR UPDATE would wait on.
   */
  async lock(agentIds: string[]): Promise<void> {
    await this.em
      .createQueryBuilder(Agent, 'a')
      .select('a.id')
      .where('a.id IN (:...agentIds)', { agentIds })
      .orderBy('a.id')
      .setLock('for_no_key_update')
      .getRawMany();
  }

  /** The entries an order's cards were made with (the batch is known once the cards are). */
  async setBatchOfOrder(orderId: string, batchId: string): Promise<void> {
    await this.em.update(AgentLedgerEntry, { orderId }, { batchId });
  }

  /** Newest first, each with its order's reference, and how many there are. */
  async page(agentId: string, skip: number, take: number): Promise<[LedgerEntryWithOrder[], number]> {
    const [{ entities, raw }, total] = await Promise.all([
      this.em
        .createQueryBuilder(AgentLedgerEntry, 'l')
        .leftJoin('orders', 'o', 'o.id = l.order_id')
        .addSelect('o.order_id', 'order_reference')
        .where('l.agent_id = :agentId', { agentId })
        .orderBy('l.id', 'DESC')
        .limit(take)
        .offset(skip)
        .getRawAndEntities<{ order_reference: string | null }>(),
      this.em.count(AgentLedgerEntry, { where: { agentId } }),
    ]);
    return [entities.map((e, i) => Object.assign(e, { orderReference: raw[i].order_reference ?? null })), total];
  }

  async counts(): Promise<{ agents: number; entries: number; orders: number }> {
    const [agents, entries, orders] = await Promise.all([
      this.em.count(Agent),
      this.em.count(AgentLedgerEntry),
      this.em.createQueryBuilder().select('count(*)::int', 'n').from('orders', 'o').getRawOne<{ n: number }>(),
    ]);
    return { agents, entries, orders: orders?.n ?? 0 };
  }

  async balanceMismatches(): Promise<BalanceMismatch[]> {
    // Raw: a reconciliation of each balance against the sum of its entries (a grouped LEFT JOIN).
    const rows = (await this.em.query(LEDGER_MISMATCHES_SQL)) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      agent_id: r.agent_id as string,
      balance_cents: Number(r.balance_cents),
      ledger_cents: Number(r.ledger_cents),
      entries: Number(r.entries),
    }));
  }

  async orderMismatches(): Promise<OrderMismatch[]> {
    // Raw: CTEs and a FULL JOIN of each order's expected entries against its ledger entries.
    const rows = (await this.em.query(ORDER_MISMATCHES_SQL)) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      order_id: r.order_id as string,
      reference: (r.reference as string | null) ?? null,
      kind: r.kind as string,
      agent_id: (r.agent_id as string | null) ?? null,
      expected_cents: r.expected_cents === null ? null : Number(r.expected_cents),
      ledger_cents: Number(r.ledger_cents),
    }));
  }
}

/** Every agent whose balance differs from the sum of its entries (the ledger check): none, always. */
const LEDGER_MISMATCHES_SQL = `
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
const ORDER_MISMATCHES_SQL = `
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
