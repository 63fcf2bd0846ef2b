import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, InputNumber, Radio, Select, Tag, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../components/ErrorAlert';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { useFormat } from '../components/format';
import { createCheckout, fetchCatalogue, formatMoney, pageProgramId, type CatalogueType } from './shop-api';
import { useFailureTexts } from './use-failure-texts';

/** The pay methods an epay gateway commonly offers (its `type`); left empty, the gateway asks the buyer. */
const EPAY_METHODS = ['alipay', 'wxpay', 'qqpay'] as const;

interface Order {
  card_type_id: number;
  count: number;
  email: string;
  provider: string;
  pay_type?: string;
}

/**
 * A program's storefront (decisions §26): its card types for sale with their prices, a count, the
 * buyer's e-mail address and a payment provider; Buy makes a checkout and leaves for its pay_url.
 */
export function StorefrontPage() {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const failures = useFailureTexts();
  const programId = pageProgramId();
  const [form] = Form.useForm<Order>();
  const catalogue = useQuery({ queryKey: ['shop', programId], queryFn: () => fetchCatalogue(programId), retry: false });
  const buy = useMutation({
    mutationFn: ({ pay_type, ...order }: Order) =>
      createCheckout(programId, { ...order, email: order.email.trim(), ...(pay_type ? { pay_type } : {}) }),
    onSuccess: (checkout) => window.location.assign(checkout.pay_url),
  });
  const shop = catalogue.data;
  const typeId = Form.useWatch('card_type_id', form);
  const count = Form.useWatch('count', form);
  const provider = Form.useWatch('provider', form);
  const chosen = shop?.card_types.find((type) => type.id === typeId);

  useEffect(() => {
    if (shop) document.title = `${shop.name} · ${t('storefront.pageTitle')}`;
  }, [shop, t]);

  const money = (cents: number) => formatMoney(cents, shop!.currency, i18n.language);
  const terms = (type: CatalogueType) =>
    [
      type.kind === 'count'
        ? t('storefront.logins', { count: type.uses ?? 0 })
        : type.duration_seconds === 0
          ? t('storefront.neverExpires')
          : t('storefront.validFor', { duration: format.duration(type.duration_seconds) }),
      t('storefront.devices', { count: type.device_limit }),
    ].join(' · ');
  const firstInStock = shop?.card_types.find((type) => type.in_stock)?.id;

  return (
    <div className="shop">
      <div className="page-title">
        <Typography.Title level={1}>{shop?.name ?? t('storefront.pageTitle')}</Typography.Title>
        <LanguageSwitch />
      </div>
      {catalogue.error && <ErrorAlert error={catalogue.error} own={failures} />}
      {catalogue.isPending && <Card loading />}
      {shop && shop.card_types.length === 0 && <Alert type="info" showIcon title={t('storefront.nothingForSale')} />}
      {shop && shop.card_types.length > 0 && (
        <>
          <Typography.Paragraph type="secondary">{t('storefront.intro')}</Typography.Paragraph>
          <Form<Order>
            form={form}
            name="storefront"
            layout="vertical"
            requiredMark={false}
            initialValues={{ card_type_id: firstInStock, count: 1, provider: shop.providers[0], pay_type: '' }}
            onFinish={(order) => buy.mutate(order)}
          >
            <Form.Item name="card_type_id" label={t('storefront.cardType')} rules={[{ required: true }]}>
              <Radio.Group className="shop-types">
                {shop.card_types.map((type) => (
                  <Radio key={type.id} value={type.id} disabled={!type.in_stock} className="shop-type">
                    <span className="shop-type-name">{type.name}</span>
                    <span className="shop-type-price">{money(type.price_cents)}</span>
                    <span className="shop-type-terms">{terms(type)}</span>
                    {!type.in_stock && (
                      <Tag color="default" className="shop-sold-out">
                        {t('storefront.soldOut')}
                      </Tag>
                    )}
                  </Radio>
                ))}
              </Radio.Group>
            </Form.Item>
            <Form.Item name="count" label={t('storefront.count')} rules={[{ required: true }]}>
              <InputNumber min={1} max={100} precision={0} inputMode="numeric" style={{ width: 140 }} />
            </Form.Item>
            <Form.Item
              name="email"
              label={t('storefront.email')}
              extra={t('storefront.emailHelp')}
              rules={[
                { required: true, message: t('storefront.emailInvalid') },
                { type: 'email', message: t('storefront.emailInvalid') },
                { max: 254 },
              ]}
            >
              <Input type="email" inputMode="email" autoComplete="email" maxLength={254} />
            </Form.Item>
            {shop.providers.length === 0 ? (
              <Alert type="warning" showIcon title={t('storefront.noProvider')} />
            ) : (
              <>
                <Form.Item name="provider" label={t('storefront.provider')} rules={[{ required: true }]}>
                  <Radio.Group className="shop-choices">
                    {shop.providers.map((name) => (
                      <Radio key={name} value={name}>
                        {t(`storefront.providers.${name}`, { defaultValue: name })}
                      </Radio>
                    ))}
                  </Radio.Group>
                </Form.Item>
                {provider === 'epay' && (
                  <Form.Item name="pay_type" label={t('storefront.payType')}>
                    <Select
                      options={[
                        { value: '', label: t('storefront.payTypes.any') },
                        ...EPAY_METHODS.map((method) => ({ value: method, label: t(`storefront.payTypes.${method}`) })),
                      ]}
                    />
                  </Form.Item>
                )}
              </>
            )}
            <div className="shop-total">
              <span>{t('storefront.total')}</span>
              <strong data-testid="shop-total">{chosen && count ? money(chosen.price_cents * count) : '—'}</strong>
            </div>
            {buy.error && <ErrorAlert error={buy.error} own={failures} />}
            <Button
              type="primary"
              htmlType="submit"
              size="large"
              block
              loading={buy.isPending || buy.isSuccess}
              disabled={shop.providers.length === 0 || !chosen?.in_stock}
            >
              {t('storefront.buy')}
            </Button>
          </Form>
        </>
      )}
    </div>
  );
}
