import { useQuery } from '@tanstack/react-query';
import { Alert, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { projectQuery } from '../projects/project-queries';
import { paymentSettingsQuery } from './payment-queries';
import { ProviderCard } from './ProviderCard';
import { providerNames } from './provider-fields';
import { StorefrontCard } from './StorefrontCard';

const texts = 'selling.payments';

/**
 * A project's selling set-up (decisions §26): the storefront's address and preview, then each
 * payment provider's settings. A provider the service answers without a notify address means the
 * service has no PUBLIC_URL: said at the top (switching a provider on is refused until it is set).
 */
export function PaymentsPage() {
  const { t } = useTranslation();
  const { projectId = '' } = useParams();
  const project = useQuery(projectQuery(projectId));
  const list = useQuery(paymentSettingsQuery(projectId));
  const stored = list.data?.items ?? [];
  const noPublicUrl = stored.some((row) => row.notify_url === null);

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
      </div>
      <Typography.Paragraph type="secondary">{t(`${texts}.intro`)}</Typography.Paragraph>
      {noPublicUrl && <Alert type="warning" showIcon className="block-gap" role="alert" title={t(`${texts}.publicUrlUnset`)} />}
      {(list.error ?? project.error) && <ErrorAlert error={list.error ?? project.error} />}
      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        {project.data && (
          // Loaded again when the payment settings change, so the preview shows what buyers now see.
          <StorefrontCard
            projectId={projectId}
            programId={project.data.program_id}
            version={stored.map((row) => `${row.provider}@${row.updated_at}`).join(' ')}
          />
        )}
        {list.data &&
          providerNames(stored).map((name) => (
            <ProviderCard key={name} projectId={projectId} name={name} stored={stored.find((row) => row.provider === name)} />
          ))}
      </Space>
    </>
  );
}
