import { useQuery } from '@tanstack/react-query';
import { Card, Col, Progress, Statistic, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { InterfaceLabel } from '../../components/InterfaceLabel';
import { usageQuery } from '../sessions/session-queries';

type InterfaceUsage = Schemas['InterfaceUsageView'];

/** The Overview's figures of the moment: live sessions by type (links to the sessions page) and today's quota use. */
export function UsageCards({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const usage = useQuery(usageQuery(projectId));
  const texts = 'sessions.overview';
  const sessions = usage.data?.sessions;
  const link = (type: string) => `/projects/${projectId}/sessions?type=${type}`;

  return (
    <>
      <Col xs={12} md={6}>
        <Card>
          <Statistic
            title={<Link to={link('card')}>{t(`${texts}.cardSessions`)}</Link>}
            value={sessions?.card ?? 0}
            loading={usage.isPending}
            data-testid="card-sessions"
          />
        </Card>
      </Col>
      <Col xs={12} md={6}>
        <Card>
          <Statistic
            title={<Link to={link('app_user')}>{t(`${texts}.userSessions`)}</Link>}
            value={sessions?.app_user ?? 0}
            loading={usage.isPending}
            data-testid="user-sessions"
          />
        </Card>
      </Col>
      <Col xs={24} md={12}>
        <Card
          title={
            usage.data
              ? t(`${texts}.quotaTitle`, { day: usage.data.day, zone: usage.data.time_zone })
              : t(`${texts}.quotaTitle`, { day: '…', zone: '…' })
          }
          loading={usage.isPending}
        >
          {usage.error && <ErrorAlert error={usage.error} />}
          {usage.data && <QuotaUse interfaces={usage.data.interfaces} />}
        </Card>
      </Col>
    </>
  );
}

/**
 * Each interface with a daily quota as a bar of today's use; the others grouped by name under
 * "unlimited" (such calls are not counted), "not authorized" and "off platform-wide".
 */
function QuotaUse({ interfaces }: { interfaces: InterfaceUsage[] }) {
  const { t } = useTranslation();
  const texts = 'sessions.overview';
  const groupOf = (row: InterfaceUsage) =>
    !row.platform_enabled
      ? 'off'
      : !row.authorized
        ? 'refused'
        : row.daily_quota === null || row.used === null
          ? 'unlimited'
          : 'quota';
  const named = (group: 'unlimited' | 'refused' | 'off', color?: string) => {
    const names = interfaces.filter((row) => groupOf(row) === group).map((row) => row.name);
    if (names.length === 0) return null;
    return (
      <div className="quota-group" data-testid={`quota-${group}`}>
        <Typography.Text type="secondary">{t(`${texts}.${group}`)}: </Typography.Text>
        {names.map((name) => (
          <Tooltip key={name} title={t(`interfaces.${name}`, { defaultValue: '' })}>
            <Tag color={color}>{name}</Tag>
          </Tooltip>
        ))}
      </div>
    );
  };
  return (
    <>
      {interfaces
        .filter((row) => groupOf(row) === 'quota')
        .map((row) => {
          const used = row.used ?? 0;
          const quota = row.daily_quota ?? 0;
          return (
            <div key={row.name} data-testid={`quota-${row.name}`}>
              <InterfaceLabel name={row.name} />
              <Progress
                percent={quota === 0 ? 100 : Math.min(100, (used / quota) * 100)}
                size="small"
                status={used >= quota ? 'exception' : 'normal'}
                format={() => `${used} / ${quota}`}
                aria-label={t(`${texts}.quotaLabel`, { name: row.name, used, quota })}
              />
            </div>
          );
        })}
      {named('unlimited', 'green')}
      {named('refused', 'red')}
      {named('off')}
    </>
  );
}
