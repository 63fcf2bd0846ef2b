import { useQueries, useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic, Table, Tag, Typography } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { CardStatus } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageLoading } from '../../components/PageLoading';
import { cardListQuery } from '../cards/card-queries';
import { CardStatusTag } from '../cards/card-labels';
import { isSuccessCode, statsQuery } from '../logs/log-queries';
import type { ChartSeries } from './LoginsChart';
import { expiringSoonQuery } from './overview-queries';
import { ProjectSales } from './ProjectSales';
import { StatsRange, daysBetween, lastDaysRange } from './StatsRange';
import { UsageCards } from './UsageCards';
import { usageQuery } from '../sessions/session-queries';
import { formatInZone, useTimeZone } from '../../components/time-zone';

const LoginsChart = lazy(async () => ({ default: (await import('./LoginsChart')).LoginsChart }));
const DAYS = 14;
const STATUSES: CardStatus[] = ['unused', 'active', 'banned', 'consumed'];
/** Refusals in warm colours, successes in green: the chart reads at a glance. */
const REFUSAL_COLORS = ['#ff4d4f', '#fa8c16', '#faad14', '#eb2f96', '#722ed1', '#a8071a'];

/** The last `count` days (YYYY-MM-DD) of `zone`, oldest first, today last: calendar days, whatever the offset does. */
function lastDays(count: number, zone: string): string[] {
  const today = formatInZone(new Date(), zone).slice(0, 10);
  const noon = Date.parse(`${today}T12:00:00Z`);
  return Array.from({ length: count }, (_, index) =>
    new Date(noon - (count - 1 - index) * 86_400_000).toISOString().slice(0, 10),
  );
}

/** A project at a glance: logins per day by result, today's figures, live sessions and quota use, cards by status, cards expiring soon. */
export function OverviewPage() {
  const { t } = useTranslation();
  const { projectId = '' } = useParams();
  // The user's display zone (the header's selector) decides what "today" is, for the tiles and the chart alike.
  const zone = useTimeZone();
  const asked = useMemo(() => lastDays(DAYS, zone), [zone]);
  const stats = useQuery(statsQuery(projectId, asked[0], asked[DAYS - 1], zone));
  // The answer's days are the zone it names (the service's own if it could not count in the user's).
  const dayZone = stats.data?.time_zone ?? zone;
  const days = useMemo(() => (dayZone === zone ? asked : lastDays(DAYS, dayZone)), [asked, dayZone, zone]);
  // The chart and the table show the chosen days (the last 14 until one is chosen); the tiles and the sales keep theirs.
  const [chosen, setChosen] = useState<[string, string] | null>(null);
  const range = chosen ?? lastDaysRange(asked[DAYS - 1], DAYS);
  const ranged = useQuery(statsQuery(projectId, range[0], range[1], zone));
  const rangeDays = useMemo(() => (chosen ? daysBetween(chosen[0], chosen[1]) : days), [chosen, days]);
  // Shared with UsageCards (one request): the trials given come with the live figures.
  const usage = useQuery(usageQuery(projectId));
  const byStatus = useQueries({ queries: STATUSES.map((status) => cardListQuery(projectId, { status }, 1, 1)) });
  const expiring = useQuery(expiringSoonQuery(projectId));
  const texts = 'operations.overview';

  const items = useMemo(() => stats.data?.items ?? [], [stats.data]);
  const rangeItems = useMemo(() => ranged.data?.items ?? [], [ranged.data]);
  const series = useMemo<ChartSeries[]>(() => {
    const perDay = (match: (code: number) => boolean) =>
      rangeDays.map((day) =>
        rangeItems.filter((item) => item.day === day && match(item.result_code)).reduce((sum, item) => sum + item.count, 0),
      );
    const refusals = [...new Set(rangeItems.map((item) => item.result_code).filter((code) => !isSuccessCode(code)))].sort(
      (a, b) => a - b,
    );
    return [
      { name: t(`${texts}.success`), color: '#52c41a', values: perDay(isSuccessCode) },
      ...refusals.map((code, index) => ({
        name: String(code),
        color: REFUSAL_COLORS[index % REFUSAL_COLORS.length],
        values: perDay((other) => other === code),
      })),
    ];
  }, [rangeItems, rangeDays, t]);
  const today = items.filter((item) => item.day === days[DAYS - 1]);
  const sum = (list: typeof items) => list.reduce((total, item) => total + item.count, 0);

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
      </div>
      {stats.error && <ErrorAlert error={stats.error} />}
      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <Card>
            <Statistic
              title={t(`${texts}.loginsToday`)}
              value={sum(today)}
              loading={stats.isPending}
              data-testid="logins-today"
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic
              title={t(`${texts}.refusedToday`)}
              value={sum(today.filter((item) => !isSuccessCode(item.result_code)))}
              loading={stats.isPending}
              data-testid="refused-today"
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title={t(`${texts}.expiringSoon`)} value={expiring.data?.total ?? 0} loading={expiring.isPending} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic
              title={t('sessions.overview.trials')}
              value={usage.data?.trials ?? 0}
              loading={usage.isPending}
              data-testid="trials-given"
            />
          </Card>
        </Col>
        <UsageCards projectId={projectId} />
        <Col xs={24} lg={16}>
          <Card
            title={`${t(`${texts}.loginsChart`)} · ${chosen ? `${range[0]} – ${range[1]}` : t(`${texts}.days`, { count: DAYS })} · ${ranged.data?.time_zone ?? zone}`}
            data-testid="logins-chart-card"
          >
            <div className="stats-range">
              <StatsRange today={asked[DAYS - 1]} value={range} onChange={setChosen} />
            </div>
            {/* A newly chosen range is charted once its answer is in: drawn before, its days showed no logins. */}
            {ranged.error ? (
              <ErrorAlert error={ranged.error} />
            ) : ranged.isPending ? (
              <PageLoading />
            ) : rangeItems.length === 0 ? (
              <Typography.Text type="secondary">{t(`${texts}.noLogins`)}</Typography.Text>
            ) : (
              <Suspense fallback={<PageLoading />}>
                <LoginsChart days={rangeDays} series={series} label={t(`${texts}.chartLabel`)} />
              </Suspense>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card title={t(`${texts}.cardsByStatus`)}>
            {STATUSES.map((status, index) => (
              <div key={status} className="status-count" data-testid={`cards-${status}`}>
                <Link to={`/projects/${projectId}/cards?status=${status}`}>
                  <CardStatusTag status={status} />
                </Link>
                <Typography.Text strong>{byStatus[index].data?.total ?? '…'}</Typography.Text>
              </div>
            ))}
          </Card>
        </Col>
      </Row>
      <ProjectSales projectId={projectId} items={stats.data?.sales ?? []} loading={stats.isPending} days={DAYS} />
      <Typography.Title level={2} className="section-title">
        {t(`${texts}.tableTitle`)}
      </Typography.Title>
      <Table
        rowKey={(item) => `${item.day}/${item.interface}/${item.result_code}`}
        dataSource={[...rangeItems].reverse()}
        loading={ranged.isPending}
        scroll={{ x: 'max-content' }}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: t(`${texts}.noLogins`) }}
        columns={[
          { title: t(`${texts}.day`), dataIndex: 'day' },
          {
            title: t(`${texts}.interface`),
            dataIndex: 'interface',
            render: (name: string) => <Typography.Text code>{name}</Typography.Text>,
          },
          {
            title: t(`${texts}.result`),
            dataIndex: 'result_code',
            render: (code: number) =>
              isSuccessCode(code) ? <Tag color="green">{t('operations.logs.success')}</Tag> : <Tag color="red">{code}</Tag>,
          },
          { title: t(`${texts}.count`), dataIndex: 'count' },
        ]}
      />
    </>
  );
}
