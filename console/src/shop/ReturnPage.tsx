import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, List, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../components/ErrorAlert';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { useFormat } from '../components/format';
import { fetchCatalogue, fetchCheckout, formatMoney, pageProgramId, type CheckoutStatus } from './shop-api';
import { useFailureTexts } from './use-failure-texts';

/** How often a pending checkout is asked again, and for how long before the page stops and offers a button. */
const POLL_MS = 2500;
const POLL_FOR_MS = 5 * 60_000;

const STATUS_COLOURS: Record<CheckoutStatus['status'], string> = {
  pending: 'processing',
  paid: 'success',
  expired: 'default',
  failed: 'error',
};

/**
 * Where the payment provider sends the buyer back (`/shop/<program id>/return?checkout_id=…&token=…`):
 * the checkout's status, asked again every few seconds while it is pending; once paid, its card
 * keys with a copy button each, and whether they were also mailed (as the service says, never assumed).
 */
export function ReturnPage() {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const failures = useFailureTexts();
  const programId = pageProgramId();
  const params = new URLSearchParams(window.location.search);
  const checkoutId = params.get('checkout_id') ?? '';
  const token = params.get('token') ?? '';
  // Set when the page has asked for POLL_FOR_MS: it stops asking until the buyer presses Check again.
  const [waitedOut, setWaitedOut] = useState(false);
  const shop = useQuery({ queryKey: ['shop', programId], queryFn: () => fetchCatalogue(programId), retry: false });
  const checkout = useQuery({
    queryKey: ['shop', 'checkout', checkoutId],
    queryFn: () => fetchCheckout(checkoutId, token),
    enabled: Boolean(checkoutId && token),
    retry: false,
    refetchInterval: (query) => (query.state.data?.status === 'pending' && !waitedOut ? POLL_MS : false),
    refetchIntervalInBackground: true,
  });
  const order = checkout.data;
  const stoppedWaiting = order?.status === 'pending' && waitedOut;

  useEffect(() => {
    if (waitedOut) return;
    const timer = setTimeout(() => setWaitedOut(true), POLL_FOR_MS);
    return () => clearTimeout(timer);
  }, [waitedOut]);

  useEffect(() => {
    document.title = `${shop.data?.name ?? ''} · ${t('storefront.returnTitle')}`.replace(/^ · /, '');
  }, [shop.data, t]);

  return (
    <div className="shop">
      <div className="page-title">
        <Typography.Title level={1}>{t('storefront.returnTitle')}</Typography.Title>
        <LanguageSwitch />
      </div>
      {shop.data && <Typography.Paragraph type="secondary">{shop.data.name}</Typography.Paragraph>}
      {!(checkoutId && token) && <Alert type="error" showIcon role="alert" title={t('storefront.incompleteLink')} />}
      {checkout.error && <ErrorAlert error={checkout.error} own={failures} />}
      {checkout.isLoading && <Card loading />}
      {order && (
        <Card>
          <div className="shop-status">
            <Tag color={STATUS_COLOURS[order.status]} data-testid="checkout-status">
              {t(`storefront.statuses.${order.status}`)}
            </Tag>
          </div>
          {order.status === 'pending' && !stoppedWaiting && (
            <Typography.Paragraph type="secondary">{t('storefront.pendingHelp')}</Typography.Paragraph>
          )}
          {stoppedWaiting && (
            <Typography.Paragraph type="secondary">
              {t('storefront.pendingStopped')}{' '}
              <Button
                size="small"
                onClick={() => {
                  setWaitedOut(false);
                  void checkout.refetch();
                }}
              >
                {t('storefront.checkAgain')}
              </Button>
            </Typography.Paragraph>
          )}
          {order.status === 'expired' && <Alert type="warning" showIcon title={t('storefront.expiredHelp')} />}
          {order.status === 'failed' && <Alert type="error" showIcon title={t('storefront.failedHelp')} />}
          {order.status === 'paid' && order.cards && (
            <>
              <Typography.Title level={2} className="section-title">
                {t('storefront.cards')}
              </Typography.Title>
              <List
                className="shop-cards"
                dataSource={order.cards}
                renderItem={(card) => (
                  <List.Item>
                    <Typography.Text
                      code
                      className="shop-card-code"
                      data-testid="card-code"
                      copyable={{ text: card.code, tooltips: [t('storefront.copy'), t('storefront.copied')] }}
                    >
                      {card.code}
                    </Typography.Text>
                  </List.Item>
                )}
              />
              <Typography.Paragraph data-testid="mail-note">
                {order.mail === 'sent'
                  ? t('storefront.mailSent')
                  : order.mail === 'pending'
                    ? t('storefront.mailPending')
                    : t('storefront.notMailed')}
              </Typography.Paragraph>
            </>
          )}
          <Descriptions column={1} size="small" className="shop-order">
            <Descriptions.Item label={t('storefront.order')}>
              <Typography.Text copyable>{order.checkout_id}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('storefront.item')}>
              {order.count > 1 ? `${order.card_type_name} × ${order.count}` : order.card_type_name}
            </Descriptions.Item>
            <Descriptions.Item label={t('storefront.amount')}>
              {formatMoney(order.amount_cents, order.currency, i18n.language)}
            </Descriptions.Item>
            {order.paid_at && (
              <Descriptions.Item label={t('storefront.paidAt')}>{format.dateTime(order.paid_at)}</Descriptions.Item>
            )}
          </Descriptions>
        </Card>
      )}
      <Typography.Paragraph className="shop-back">
        <a href={`/shop/${programId}`}>{t('storefront.backToShop')}</a>
      </Typography.Paragraph>
    </div>
  );
}
