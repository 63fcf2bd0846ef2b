import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Col, Form, Input, Row, Select, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError } from '../../api/errors';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { PageLoading } from '../../components/PageLoading';
import { projectKeys, projectQuery } from '../projects/project-queries';
import {
  connectKey,
  customizationQuery,
  previewQuery,
  resetCustomization,
  saveCustomization,
  setConnect,
  type ConnectCustomization,
} from './connect-queries';

const FIELDS = [
  'status',
  'code',
  'reason',
  'data',
  'request_id',
  'token',
  'expires_at',
  'device_limit',
  'server_time',
  'machine_code',
  'announcement',
] as const;
const ALGORITHMS = ['md5', 'sha256', 'hmac_sha256'] as const;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;
/** CONNECT_NOT_SELF_SERVICE: the platform's mode changed after the page was loaded. */
const NOT_SELF_SERVICE = 11207;

interface Draft {
  field_names: Record<string, string | undefined>;
  token_algorithm: (typeof ALGORITHMS)[number] | null;
  token_template: string | null;
  secret?: string;
  remove_secret?: boolean;
}

/** What the form sends: renames that differ from the default, the token rule, and the secret only when changed. */
function toBody({ field_names, token_algorithm, token_template, secret, remove_secret }: Draft): ConnectCustomization {
  const renames = Object.fromEntries(
    Object.entries(field_names)
      .filter((entry): entry is [string, string] => Boolean(entry[1]?.trim()) && entry[1]!.trim() !== entry[0])
      .map(([from, to]) => [from, to.trim()]),
  );
  return {
    field_names: renames,
    token_algorithm: token_algorithm ?? null,
    token_template: token_template?.trim() ? token_template.trim() : null,
    ...(remove_secret ? { secret: null } : secret ? { secret } : {}),
  };
}

/** A project's Connect: its switch, and the customization of its answer with a preview of what clients get. */
export function ConnectPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const { projectId = '' } = useParams();
  const project = useQuery(projectQuery(projectId));
  const custom = useQuery(customizationQuery(projectId));
  const preview = useQuery(previewQuery(projectId));
  const refresh = () => void queries.invalidateQueries({ queryKey: connectKey(projectId) });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => setConnect(projectId, enabled),
    onSuccess: (saved) => {
      queries.setQueryData(projectKeys.one(projectId), saved);
      void message.success(t(saved.connect_enabled ? 'connect.switchedOn' : 'connect.switchedOff'));
    },
    onError: (error) => {
      // Said in the page's words, then the page shows the rule that applies now (no switch).
      if (error instanceof ApiError && error.code === NOT_SELF_SERVICE) {
        void message.warning(t('connect.notSwitchable'));
        void queries.invalidateQueries({ queryKey: projectKeys.one(projectId) });
      } else notifyError(error);
    },
  });
  const save = useMutation({
    mutationFn: (draft: Draft) => saveCustomization(projectId, toBody(draft)),
    onSuccess: () => {
      refresh();
      void message.success(t('common.saved'));
    },
  });
  const reset = useMutation({
    mutationFn: () => resetCustomization(projectId),
    onSuccess: refresh,
    onError: notifyError,
  });

  if (custom.error) return <ErrorAlert error={custom.error} />;
  if (!custom.data || !project.data) return <PageLoading />;
  const current = custom.data;
  const opening = project.data.connect_opening;
  const algorithm = ALGORITHMS.find((name) => name === current.token_algorithm) ?? null;
  const initial: Draft = {
    field_names: { ...current.field_names },
    token_algorithm: algorithm,
    token_template: current.token_template,
  };

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>
          {t('connect.title')}{' '}
          <Tag color={current.customized ? 'blue' : 'default'}>
            {current.customized ? t('connect.customized') : t('connect.defaults')}
          </Tag>
        </Typography.Title>
      </div>
      <Card title={t('connect.switchTitle')} data-testid="connect-opening">
        <Typography.Paragraph>
          <Tag color={opening.open ? 'green' : 'red'} style={{ fontSize: 14, padding: '2px 10px' }}>
            {opening.open ? t('connect.open') : t('connect.closed')}
          </Tag>{' '}
          <span data-testid="connect-reason">
            {t(`connect.reasons.${opening.mode}_${opening.open ? 'open' : 'closed'}`, {
              min: opening.min_level,
              level: project.data.plan_level,
            })}
          </span>
        </Typography.Paragraph>
        <Typography.Paragraph type="secondary">{t('connect.switchHelp')}</Typography.Paragraph>
        {opening.switchable ? (
          <>
            <Switch
              checked={project.data.connect_enabled}
              loading={toggle.isPending}
              aria-label={t('connect.enabled')}
              onChange={(enabled) => toggle.mutate(enabled)}
            />{' '}
            {t('connect.enabled')}
          </>
        ) : (
          <Typography.Text type="secondary">{t('connect.noSwitch')}</Typography.Text>
        )}
      </Card>
      <Row gutter={[16, 16]} style={{ marginTop: 16 }}>
        <Col xs={24} xl={14}>
          <Card title={t('connect.customTitle')}>
            <Typography.Paragraph type="secondary">{t('connect.customHelp')}</Typography.Paragraph>
            <Form<Draft>
              name="connect-customization"
              layout="vertical"
              initialValues={initial}
              key={current.updated_at ?? 'default'}
              onFinish={(draft) => save.mutate(draft)}
            >
              <Typography.Title level={2} className="section-title">
                {t('connect.fieldNames')}
              </Typography.Title>
              <Typography.Paragraph type="secondary">{t('connect.fieldHelp')}</Typography.Paragraph>
              <Row gutter={12}>
                {FIELDS.map((field) => (
                  <Col xs={24} sm={12} key={field}>
                    <Form.Item
                      name={['field_names', field]}
                      label={field}
                      rules={[{ pattern: FIELD_NAME, message: t('connect.fieldHelp') }]}
                    >
                      <Input placeholder={field} maxLength={32} autoComplete="off" />
                    </Form.Item>
                  </Col>
                ))}
              </Row>
              <Form.Item name="token_algorithm" label={t('connect.algorithm')}>
                <Select
                  allowClear
                  placeholder={t('connect.defaultToken')}
                  options={ALGORITHMS.map((value) => ({ value, label: value }))}
                />
              </Form.Item>
              <Form.Item
                name="token_template"
                label={t('connect.template')}
                extra={t('connect.templateHelp')}
                rules={[{ max: 512 }]}
              >
                <Input.TextArea
                  autoSize={{ minRows: 1, maxRows: 4 }}
                  maxLength={512}
                  placeholder="{user_key}|{serial}|{timestamp}"
                />
              </Form.Item>
              <Form.Item
                name="secret"
                label={t('connect.secret')}
                extra={current.has_secret ? `${t('connect.hasSecret')} ${t('connect.secretHelp')}` : t('connect.secretHelp')}
              >
                <Input.Password autoComplete="new-password" maxLength={256} />
              </Form.Item>
              {current.has_secret && (
                <Form.Item name="remove_secret" valuePropName="checked">
                  <Checkbox>{t('connect.removeSecret')}</Checkbox>
                </Form.Item>
              )}
              {save.error && <ErrorAlert error={save.error} />}
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                {t('connect.save')}
              </Button>{' '}
              <Button
                danger
                disabled={!current.customized}
                onClick={() =>
                  confirmDanger({
                    title: t('connect.resetTitle'),
                    content: t('connect.resetText'),
                    okText: t('connect.reset'),
                    onOk: () => reset.mutateAsync(),
                  })
                }
              >
                {t('connect.reset')}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card title={t('connect.previewTitle')}>
            {preview.error && <ErrorAlert error={preview.error} />}
            <Typography.Text strong>{t('connect.previewSuccess')}</Typography.Text>
            <pre className="json-preview" data-testid="preview-success">
              {preview.data ? JSON.stringify(preview.data.success, null, 2) : '…'}
            </pre>
            <Typography.Text strong>{t('connect.previewFailure')}</Typography.Text>
            <pre className="json-preview" data-testid="preview-failure">
              {preview.data ? JSON.stringify(preview.data.failure, null, 2) : '…'}
            </pre>
          </Card>
        </Col>
      </Row>
    </>
  );
}
