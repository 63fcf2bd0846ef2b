import { Queryable } from '../events/domain-events';
import { SalesItem } from './sales-item.view';

/** The agent key of the author's own orders in sales_daily_counts (a key column cannot be null). */
export const NO_AGENT = '00000000-0000-0000-0000-000000000000';

/** A sale (or, negative, its refund) as the counters take it. */
export interface SaleCount {
  projectId: string;
  agentId: string | null;
  cardTypeId: number;
  sold: number;
  revenueCents: number;
  at?: Date;
}

/**
 * The sales counters (`sales_daily_counts`): written by the orders (a sale, a refund) in their
 * transaction, read by the sales statistics of a project and of an agent. Made per use with `in`,
 * on the data source, a replica or a transaction's manager.
 */
export class SalesCountsRepository {
  constructor(private readonly db: Queryable) {}

  static in(db: Queryable): SalesCountsRepository {
    return new SalesCountsRepository(db);
  }

  /**
   * Adds to the sales of an order's day (local day of the login counts' zone), in the caller's
   * transaction: an order counts `sold` and `revenue`, a refund takes them back on the order's day
   * (`at` = the order's creation). Spread over the 16 slots of the key, as login_daily_counts are.
   */
  async add(sale: SaleCount): Promise<void> {
    // Raw: ON CONFLICT … DO UPDATE adding to a counter slot, on the hot path of each sale.
    await this.db.query(
      `INSERT INTO sales_daily_counts AS s (project_id, day, agent_id, card_type_id, slot, sold, revenue_cents)
     VALUES ($1, (coalesce($6::timestamptz, now()) AT TIME ZONE (SELECT time_zone FROM login_count_zone))::date, $2, $3, pg_backend_pid() % 16, $4, $5)
     ON CONFLICT (project_id, day, agent_id, card_type_id, slot) DO UPDATE SET sold = s.sold + EXCLUDED.sold, revenue_cents = s.revenue_cents + EXCLUDED.revenue_cents`,
      [sale.projectId, sale.agentId ?? NO_AGENT, sale.cardTypeId, sale.sold, sale.revenueCents, sale.at ?? null],
    );
  }

  /**
   * Sales per day, project, agent and card type between two local days (inclusive), summed over the
   * slots: of one project (`projectId`) or of some agents (`agentIds`), never read from the cards.
   */
  async items(scope: { projectId?: string; agentIds?: string[] }, from: string, to: string): Promise<SalesItem[]> {
    // Raw: grouped sums over the counter's slots, days as text, of a project or of an array of agents.
    const rows = (await this.db.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, project_id, agent_id, card_type_id,
       sum(sold)::integer AS sold, sum(activated)::integer AS activated, sum(revenue_cents)::bigint AS revenue_cents
     FROM sales_daily_counts
     WHERE day BETWEEN CAST($1 AS date) AND CAST($2 AS date)
       AND ($3::uuid IS NULL OR project_id = $3) AND ($4::uuid[] IS NULL OR agent_id = ANY($4::uuid[]))
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
      [from, to, scope.projectId ?? null, scope.agentIds ?? null],
    )) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      day: r.day as string,
      project_id: r.project_id as string,
      agent_id: r.agent_id === NO_AGENT ? null : (r.agent_id as string),
      card_type_id: Number(r.card_type_id),
      sold: Number(r.sold),
      activated: Number(r.activated),
      revenue_cents: Number(r.revenue_cents),
    }));
  }
}
