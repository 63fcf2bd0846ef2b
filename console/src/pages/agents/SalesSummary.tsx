import { Card, Col, Row, Statistic, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMoney } from '../card-types/card-type-labels';
import type { SalesItem } from './agent-queries';

interface Totals {
  key: string;
  label: string;
  sold: number;
  activated: number;
  revenue_cents: number;
}

/** The items summed by a key (an agent, a card type, a day), largest revenue first (days: newest first). */
function sumBy(items: SalesItem[], keyOf: (item: SalesItem) => string, labelOf: (key: string) => string): Totals[] {
  const rows = new Map<string, Totals>();
  for (const item of items) {
    const key = keyOf(item);
    const row = rows.get(key) ?? { key, label: labelOf(key), sold: 0, activated: 0, revenue_cents: 0 };
    row.sold += item.sold;
    row.activated += item.activated;
    row.revenue_cents += item.revenue_cents;
    rows.set(key, row);
  }
  return [...rows.values()];
}

export type Breakdown = 'agent' | 'type' | 'day';

/**
 * Sales from the service's counters: cards sold, activated and the revenue in all, then per agent,
 * per card type and per day, as tables (what a screen reader reads).
 */
export function SalesSummary({
  items,
  loading,
  breakdowns,
  agentName,
  typeName,
  amountLabel,
}: {
  items: SalesItem[];
  loading: boolean;
  breakdowns: Breakdown[];
  agentName: (id: string | null) => string;
  typeName: (id: number) => string;
  /** What the amount is to the reader: the author's revenue, or what the cards cost the agent reading its own. */
  amountLabel?: string;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const texts = 'agents.sales';
  const revenueTitle = amountLabel ?? t(`${texts}.revenue`);
  const [all] = sumBy(
    items,
    () => 'all',
    () => '',
  );
  const tables: Record<Breakdown, Totals[]> = {
    agent: sumBy(
      items,
      (item) => item.agent_id ?? '',
      (key) => agentName(key || null),
    ).sort((a, b) => b.revenue_cents - a.revenue_cents),
    type: sumBy(
      items,
      (item) => String(item.card_type_id),
      (key) => typeName(Number(key)),
    ).sort((a, b) => b.revenue_cents - a.revenue_cents),
    day: sumBy(
      items,
      (item) => item.day,
      (key) => key,
    ).sort((a, b) => b.key.localeCompare(a.key)),
  };
  return (
    <>
      <Row gutter={[16, 16]} className="block-gap">
        <Col xs={8}>
          <Card size="small">
            <Statistic title={t(`${texts}.sold`)} value={all?.sold ?? 0} loading={loading} data-testid="sales-sold" />
          </Card>
        </Col>
        <Col xs={8}>
          <Card size="small">
            <Statistic
              title={t(`${texts}.activated`)}
              value={all?.activated ?? 0}
              loading={loading}
              data-testid="sales-activated"
            />
          </Card>
        </Col>
        <Col xs={8}>
          <Card size="small">
            <Statistic
              title={revenueTitle}
              value={money(all?.revenue_cents ?? 0)}
              loading={loading}
              data-testid="sales-revenue"
            />
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        {breakdowns.map((breakdown) => (
          <Col key={breakdown} xs={24} lg={24 / breakdowns.length}>
            <Table<Totals>
              rowKey="key"
              size="small"
              loading={loading}
              dataSource={tables[breakdown]}
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              locale={{ emptyText: t(`${texts}.empty`) }}
              data-testid={`sales-per-${breakdown}`}
              columns={[
                { title: t(`${texts}.per.${breakdown}`), dataIndex: 'label' },
                { title: t(`${texts}.sold`), dataIndex: 'sold', align: 'right' as const },
                { title: t(`${texts}.activated`), dataIndex: 'activated', align: 'right' as const },
                {
                  title: revenueTitle,
                  dataIndex: 'revenue_cents',
                  align: 'right' as const,
                  render: (cents: number) => money(cents),
                },
              ]}
            />
          </Col>
        ))}
      </Row>
    </>
  );
}
