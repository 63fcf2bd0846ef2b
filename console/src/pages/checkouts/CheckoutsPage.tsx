import { ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { CheckoutsTable } from './CheckoutsTable';
import { RefusalsTable } from './RefusalsTable';

const texts = 'selling.checkouts';

/**
 * A project's storefront checkouts and the gateway notifications refused for it (decisions §26). The
 * tab and a refusal list's checkout are in the address, so a checkout's refusals can be linked to.
 */
export function CheckoutsPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const { projectId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'refusals' ? 'refusals' : 'checkouts';
  const checkoutId = params.get('checkout') ?? undefined;
  const show = (next: { tab?: string; checkout?: string }) =>
    setParams(Object.fromEntries(Object.entries(next).filter(([, value]) => value)) as Record<string, string>, {
      replace: true,
    });

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
        <Button icon={<ReloadOutlined />} onClick={() => void queries.invalidateQueries({ queryKey: ['checkouts', projectId] })}>
          {t(`${texts}.refresh`)}
        </Button>
      </div>
      <Tabs
        activeKey={tab}
        onChange={(key) => show({ tab: key === 'refusals' ? 'refusals' : undefined })}
        items={[
          {
            key: 'checkouts',
            label: t(`${texts}.tabs.checkouts`),
            children: <CheckoutsTable projectId={projectId} onRefusals={(id) => show({ tab: 'refusals', checkout: id })} />,
          },
          {
            key: 'refusals',
            label: t(`${texts}.tabs.refusals`),
            children: (
              <RefusalsTable
                key={checkoutId ?? 'all'}
                projectId={projectId}
                checkoutId={checkoutId}
                onCheckout={(id) => show({ tab: 'refusals', checkout: id })}
              />
            ),
          },
        ]}
      />
    </>
  );
}
