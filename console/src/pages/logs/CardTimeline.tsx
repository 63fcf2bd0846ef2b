import { useQuery } from '@tanstack/react-query';
import { Button, Card as Panel, Empty, Space, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { isSuccessCode, requestListQuery } from './log-queries';
import { RequestDrawer } from './LogsPage';
import { ResultTag } from './request-labels';

/** A card's latest requests, newest first, each opening its explanation; the rest in the request log. */
export function CardTimeline({ projectId, cardCode }: { projectId: string; cardCode: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  // By key, not id: a request refused before the card rules (the login blacklist) names the key but no card id.
  const requests = useQuery(requestListQuery(projectId, { card: cardCode }, format.zone, 1, 20));
  const [opened, setOpened] = useState<string | null>(null);
  const items = requests.data?.items ?? [];
  return (
    <Panel
      title={t('requests.timeline.title')}
      size="small"
      className="block-gap"
      data-testid="card-timeline"
      extra={<Link to={`/projects/${projectId}/logs?card=${encodeURIComponent(cardCode)}`}>{t('requests.timeline.all')}</Link>}
      loading={requests.isPending}
    >
      {requests.error && <ErrorAlert error={requests.error} />}
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('requests.timeline.empty')} />
      ) : (
        <Timeline
          items={items.map((entry) => ({
            key: entry.request_id,
            color: isSuccessCode(entry.result_code) ? 'green' : 'red',
            content: (
              <Space wrap size={[8, 0]}>
                <Typography.Text>{format.dateTime(entry.at)}</Typography.Text>
                <ResultTag code={entry.result_code} />
                <Typography.Text code>{entry.interface ?? entry.route ?? '—'}</Typography.Text>
                {entry.machine_code && <Typography.Text type="secondary">{entry.machine_code}</Typography.Text>}
                {entry.ip && <Typography.Text type="secondary">{entry.ip}</Typography.Text>}
                <Button
                  size="small"
                  type="link"
                  aria-label={t('requests.detailsOf', { id: entry.request_id })}
                  onClick={() => setOpened(entry.request_id)}
                >
                  {t('requests.details')}
                </Button>
              </Space>
            ),
          }))}
        />
      )}
      {opened && <RequestDrawer projectId={projectId} requestId={opened} onClose={() => setOpened(null)} />}
    </Panel>
  );
}
