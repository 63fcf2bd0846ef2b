import { useMutation } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Form, Input, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../components/ErrorAlert';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { useFormat } from '../components/format';
import { portalCall, type CardInfo } from './portal-api';

type Device = CardInfo['devices'][number];
interface Holder {
  program_id: string;
  card_key: string;
}

/** A program may link its users to /portal/<program ID>: the field is then filled in. */
const linkedProgramId = () => /^\/portal\/(\d{8})\/?$/.exec(window.location.pathname)?.[1] ?? '';

/**
 * The card holder's page (decisions §14): their card, its devices, an unbind with its cost, the
 * rebinding rules and when the next unbind is possible shown before confirming (§21), and a top-up
 * with a second card. Only the portal's client routes, never the admin API.
 */
export function PortalPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { modal, message } = App.useApp();
  const [holder, setHolder] = useState<Holder>();
  const show = useMutation({
    mutationFn: (who: Holder) => portalCall<CardInfo>('/api/v1/portal/cards/info', { ...who }),
    onSuccess: (_, who) => setHolder(who),
  });
  const refresh = () => holder && show.mutate(holder);
  const unbind = useMutation({
    mutationFn: (device: Device) => portalCall('/api/v1/portal/cards/unbind', { ...holder!, machine_id: device.machine_code }, 1),
    onSuccess: (_, device) => {
      void message.success(t('portal.unbound', { device: device.machine_code }));
      refresh();
    },
  });
  const topup = useMutation({
    mutationFn: (topupKey: string) => portalCall('/api/v1/portal/cards/topup', { ...holder!, topup_key: topupKey }),
    onSuccess: () => {
      void message.success(t('portal.toppedUp'));
      refresh();
    },
  });
  const card = show.data;

  /** The rebinding rules, and when the next unbind is possible if not now (decisions §21). */
  const rules = (terms: CardInfo['unbind']) =>
    [
      terms.cooldown_seconds > 0 ? t('portal.unbindCooldown', { wait: format.duration(terms.cooldown_seconds) }) : '',
      terms.max_per_30_days !== null ? t('portal.unbindMonthly', { max: terms.max_per_30_days, used: terms.used_30_days }) : '',
      terms.next_unbind_at
        ? t('portal.unbindNext', { at: terms.next_unbind_at })
        : terms.refused_reason === 'limit'
          ? t('portal.unbindNoneLeft')
          : '',
    ]
      .filter(Boolean)
      .join(' ');

  const confirmUnbind = (device: Device) => {
    const terms = card!.unbind;
    const cost =
      terms.deduct_seconds > 0 ? t('portal.unbindCost', { cost: format.duration(terms.deduct_seconds) }) : t('portal.unbindFree');
    const left = terms.remaining === null ? '' : ` ${t('portal.unbindsLeft', { count: terms.remaining })}`;
    const rule = rules(terms);
    modal.confirm({
      title: t('portal.unbindTitle', { device: device.machine_code }),
      content: <span data-testid="unbind-terms">{cost + left + (rule ? ` ${rule}` : '')}</span>,
      okText: t('portal.unbind'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () => unbind.mutateAsync(device).catch(() => undefined),
    });
  };

  const confirmTopup = ({ topup_key }: { topup_key: string }) =>
    modal.confirm({
      title: t('portal.topup'),
      content: t('portal.topupConfirm', { key: topup_key.trim() }),
      okText: t('portal.topupSubmit'),
      cancelText: t('common.cancel'),
      onOk: () => topup.mutateAsync(topup_key.trim()).catch(() => undefined),
    });

  return (
    <div className="portal">
      <div className="page-title">
        <Typography.Title level={1}>{t('portal.title')}</Typography.Title>
        <LanguageSwitch />
      </div>
      <Typography.Paragraph type="secondary">{t('portal.intro')}</Typography.Paragraph>
      <Card>
        <Form<Holder>
          name="portal-card"
          layout="vertical"
          initialValues={{ program_id: linkedProgramId() }}
          onFinish={(values) => show.mutate({ program_id: values.program_id.trim(), card_key: values.card_key.trim() })}
        >
          <Form.Item
            name="program_id"
            label={t('portal.programId')}
            extra={t('portal.programIdHelp')}
            rules={[{ required: true }, { pattern: /^\s*\d{8}\s*$/, message: t('portal.programIdHelp') }]}
          >
            <Input inputMode="numeric" maxLength={8} autoComplete="off" />
          </Form.Item>
          <Form.Item name="card_key" label={t('portal.cardKey')} rules={[{ required: true, whitespace: true }, { max: 64 }]}>
            <Input.Password autoComplete="off" maxLength={64} visibilityToggle />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={show.isPending}>
            {t('portal.show')}
          </Button>
        </Form>
      </Card>
      {show.error && <ErrorAlert error={show.error} />}
      {card && (
        <Card className="portal-card">
          <Descriptions column={{ xs: 1, md: 2 }} size="small">
            <Descriptions.Item label={t('portal.kind')}>
              {t(`portal.kinds.${card.kind}`)}
              {card.trial && (
                <Tag color="blue" style={{ marginInlineStart: 8 }} data-testid="card-trial">
                  {t('portal.trial')}
                </Tag>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('portal.status')}>
              <Tag
                color={card.status === 'active' ? 'green' : card.status === 'banned' ? 'red' : 'default'}
                data-testid="card-status"
              >
                {t(`portal.statuses.${card.status}`)}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('portal.activated')}>{card.activated_at ?? t('portal.never')}</Descriptions.Item>
            {card.kind === 'count' ? (
              <Descriptions.Item label={t('portal.usesLeft')}>{card.uses_left ?? '—'}</Descriptions.Item>
            ) : (
              <Descriptions.Item label={t('portal.expires')}>
                <span data-testid="card-expires">{card.expires_at ?? t('portal.permanent')}</span>
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('portal.devices')}>
              {t('portal.deviceLimit', { count: card.device_limit })}
            </Descriptions.Item>
          </Descriptions>
          {unbind.error && <ErrorAlert error={unbind.error} />}
          {!card.unbind.enabled && <Typography.Paragraph type="secondary">{t('portal.unbindOff')}</Typography.Paragraph>}
          {card.unbind.enabled && rules(card.unbind) && (
            <Typography.Paragraph type="secondary" data-testid="unbind-rules">
              {rules(card.unbind)}
            </Typography.Paragraph>
          )}
          <Table<Device>
            rowKey="machine_code"
            size="small"
            dataSource={card.devices}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: t('portal.noDevices') }}
            columns={[
              { title: t('portal.device'), dataIndex: 'machine_code' },
              { title: t('portal.boundAt'), dataIndex: 'bound_at' },
              {
                title: t('portal.lastLogin'),
                dataIndex: 'last_login_at',
                render: (at: string | null) => at ?? t('portal.never'),
              },
              {
                title: '',
                key: 'unbind',
                render: (_, device) => (
                  <Button
                    size="small"
                    danger
                    disabled={card.unbind.refused_reason !== null}
                    onClick={() => confirmUnbind(device)}
                    aria-label={`${t('portal.unbind')} ${device.machine_code}`}
                  >
                    {t('portal.unbind')}
                  </Button>
                ),
              },
            ]}
          />
          <Typography.Title level={2} className="section-title">
            {t('portal.topup')}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{t('portal.topupHelp')}</Typography.Paragraph>
          <Form name="portal-topup" layout="inline" onFinish={confirmTopup}>
            <Space wrap>
              <Form.Item
                name="topup_key"
                label={t('portal.topupKey')}
                rules={[{ required: true, whitespace: true }, { max: 64 }]}
              >
                <Input autoComplete="off" maxLength={64} />
              </Form.Item>
              <Button htmlType="submit" loading={topup.isPending}>
                {t('portal.topupSubmit')}
              </Button>
            </Space>
          </Form>
          {topup.error && <ErrorAlert error={topup.error} />}
        </Card>
      )}
    </div>
  );
}
