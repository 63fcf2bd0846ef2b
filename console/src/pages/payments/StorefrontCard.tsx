import { ExportOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMoney } from '../../components/format';
import { storefrontTypesQuery } from './payment-queries';

const texts = 'selling.storefront';

/**
 * The program's storefront: its public address (copy, open), the card types it sells, and a
 * phone-sized preview of the page itself (same origin, so the page may be framed by the console).
 */
export function StorefrontCard({ projectId, programId, version }: { projectId: string; programId: string; version: string }) {
  const { t } = useTranslation();
  const money = useMoney();
  const address = `${window.location.origin}/shop/${programId}`;
  const types = useQuery(storefrontTypesQuery(projectId));
  const forSale = (types.data?.items ?? []).filter((type) => type.for_sale && type.enabled);

  return (
    <Card title={t(`${texts}.title`)} className="storefront-card">
      <div className="storefront">
        <div className="storefront-facts">
          <Typography.Paragraph type="secondary">{t(`${texts}.intro`)}</Typography.Paragraph>
          <Typography.Paragraph>
            <Typography.Text strong>{t(`${texts}.address`)}: </Typography.Text>
            <Typography.Text code copyable data-testid="storefront-url">
              {address}
            </Typography.Text>
          </Typography.Paragraph>
          <Button icon={<ExportOutlined />} href={address} target="_blank" rel="noopener">
            {t(`${texts}.open`)}
          </Button>
          <Typography.Title level={2} className="section-title">
            {t(`${texts}.forSale`)}
          </Typography.Title>
          {types.data && forSale.length === 0 && (
            <Typography.Paragraph type="secondary">{t(`${texts}.noneForSale`)}</Typography.Paragraph>
          )}
          <Space wrap>
            {forSale.map((type) => (
              <Tag key={type.id} color="blue">
                {type.name} · {money(type.price_cents)}
                {type.stock_mode === 'stock' && ` · ${t(`${texts}.stock`)}`}
              </Tag>
            ))}
          </Space>
          <Typography.Paragraph className="block-gap" style={{ marginTop: 8 }}>
            <Link to={`/projects/${projectId}/card-types`}>{t(`${texts}.cardTypes`)}</Link>
          </Typography.Paragraph>
        </div>
        <iframe
          key={version}
          className="storefront-preview"
          title={t(`${texts}.preview`)}
          src={`/shop/${programId}`}
          loading="lazy"
        />
      </div>
    </Card>
  );
}
