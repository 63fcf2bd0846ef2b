import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, InputNumber, Modal, Radio, Result, Select, Space, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/ErrorAlert';
import { cardKeys, generateCards, saveFile, type NewCards } from './card-queries';
import { cardTypesQuery } from '../card-types/card-type-queries';
import { useAllowance } from '../card-types/card-type-labels';
import { SeatLimitInputs } from './SeatLimitInputs';

const UNITS = { seconds: 1, minutes: 60, hours: 3600, days: 86400 } as const;
type Unit = keyof typeof UNITS;
const MAX_INT32 = 2_147_483_647;
/** The API's own pattern for a prefix (src/cards/card-codes.ts). */
const PREFIX = /^[A-Za-z0-9-]{0,16}$/;

interface GenerateForm {
  count: number;
  /** From a card type (its rules; count and note only) or with the rules set here. */
  source: 'type' | 'manual';
  card_type_id?: number;
  /** With a type: the cards are its storefront stock (sold by a type in stock mode; no login before sold). */
  stock?: boolean;
  kind: 'time' | 'count';
  duration: number;
  unit: Unit;
  uses?: number;
  device_limit?: number | null;
  concurrent_limit?: number | null;
  unlimited_seats: boolean;
  prefix?: string;
  note?: string;
}

/** One key per opened form: a retried submission (a timeout, a double click) gets the same batch back. */
function idempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function toRequest(values: GenerateForm): NewCards {
  // The API refuses a rule sent beside a type (docs/decisions.md, card types): only count and note go with it.
  if (values.source === 'type')
    return {
      count: values.count,
      card_type_id: values.card_type_id,
      ...(values.stock ? { stock: true } : {}),
      ...(values.note ? { note: values.note } : {}),
    };
  return {
    count: values.count,
    kind: values.kind,
    duration_seconds: values.duration * UNITS[values.unit],
    ...(values.kind === 'count' ? { uses: values.uses } : {}),
    ...(values.device_limit ? { device_limit: values.device_limit } : {}),
    ...(values.unlimited_seats
      ? { concurrent_limit: null }
      : values.concurrent_limit
        ? { concurrent_limit: values.concurrent_limit }
        : {}),
    ...(values.prefix ? { prefix: values.prefix } : {}),
    ...(values.note ? { note: values.note } : {}),
  };
}

/** A batch with every field of the API; the codes are shown at the end to copy or download. */
export function GenerateCardsModal({
  projectId,
  onClose,
  onShowBatch,
}: {
  projectId: string;
  onClose: () => void;
  onShowBatch: (batchId: string) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<GenerateForm>();
  const [key] = useState(idempotencyKey);
  const queries = useQueryClient();
  const kind = Form.useWatch('kind', form);
  const unlimitedSeats = Form.useWatch('unlimited_seats', form);
  const types = useQuery(cardTypesQuery(projectId));
  const enabledTypes = (types.data?.items ?? []).filter((type) => type.enabled);
  // A project that sells card types starts from them. A form reads its initial values once, so it opens only
  // when the list is current: opened while the cached list (say, empty, from before a type was made) was
  // being refetched, it started on 'manual' and stayed there. Once open, a later refetch leaves it alone.
  const [typesKnown, setTypesKnown] = useState(false);
  if (!typesKnown && !types.isFetching) setTypesKnown(true);
  const initialSource: GenerateForm['source'] = enabledTypes.length > 0 ? 'type' : 'manual';
  const source = Form.useWatch('source', form) ?? initialSource;
  const allowance = useAllowance();
  const generate = useMutation({
    mutationFn: (body: NewCards) => generateCards(projectId, body, key),
    onSuccess: () => void queries.invalidateQueries({ queryKey: cardKeys.ofProject(projectId) }),
  });
  const field = (name: string) => ({ label: t(`generate.${name}.label`), extra: t(`generate.${name}.help`) });

  if (generate.data) {
    const codes = generate.data.items.map((card) => card.code).join('\n');
    return (
      <Modal
        open
        title={t('generate.title')}
        onCancel={onClose}
        footer={<Button onClick={onClose}>{t('common.close')}</Button>}
        width={640}
      >
        <Result
          status="success"
          title={t('generate.doneTitle', { count: generate.data.items.length })}
          subTitle={t('generate.doneText', { batch: generate.data.batch_id })}
          extra={
            <Space wrap>
              <Button icon={<CopyOutlined />} onClick={() => void navigator.clipboard?.writeText(codes)}>
                {t('common.copy')}
              </Button>
              <Button
                icon={<DownloadOutlined />}
                onClick={() => saveFile(new Blob([`${codes}\n`], { type: 'text/plain' }), `cards-${generate.data.batch_id}.txt`)}
              >
                {t('generate.download')}
              </Button>
              <Button type="primary" onClick={() => onShowBatch(generate.data.batch_id)}>
                {t('generate.showBatch')}
              </Button>
            </Space>
          }
        />
        <Input.TextArea
          readOnly
          value={codes}
          autoSize={{ minRows: 3, maxRows: 12 }}
          aria-label={t('cards.code')}
          data-testid="generated-codes"
        />
      </Modal>
    );
  }

  return (
    <Modal
      open
      title={t('generate.title')}
      okText={t('cards.generate')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={generate.isPending}
      okButtonProps={{ disabled: !typesKnown }}
      loading={!typesKnown}
      width={640}
    >
      {typesKnown && (
        <Form<GenerateForm>
          form={form}
          name="generate-cards"
          layout="vertical"
          initialValues={{
            count: 10,
            source: initialSource,
            card_type_id: enabledTypes.length === 1 ? enabledTypes[0].id : undefined,
            kind: 'time',
            duration: 30,
            unit: 'days',
            unlimited_seats: false,
          }}
          onFinish={(values) => generate.mutate(toRequest(values))}
          disabled={generate.isPending}
        >
          <Form.Item name="count" {...field('count')} rules={[{ required: true }, { type: 'integer', min: 1, max: 10000 }]}>
            <InputNumber precision={0} autoFocus style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="source" label={t('cardTypes.generate.source')}>
            <Radio.Group
              optionType="button"
              options={[
                { value: 'type', label: t('cardTypes.generate.fromType') },
                { value: 'manual', label: t('cardTypes.generate.manual') },
              ]}
            />
          </Form.Item>
          {source === 'type' ? (
            <>
              {types.isSuccess && enabledTypes.length === 0 && (
                <Alert type="info" showIcon className="block-gap" title={t('cardTypes.generate.noType')} />
              )}
              <Form.Item
                name="card_type_id"
                label={t('cardTypes.generate.type.label')}
                extra={t('cardTypes.generate.type.help')}
                rules={[{ required: true }]}
              >
                <Select
                  loading={types.isLoading}
                  showSearch
                  optionFilterProp="name"
                  options={enabledTypes.map((type) => ({
                    value: type.id,
                    name: type.name,
                    label: `${type.name} · ${allowance(type)}`,
                  }))}
                />
              </Form.Item>
              <Form.Item
                name="stock"
                valuePropName="checked"
                label={t('cardTypes.generate.stock.label')}
                extra={t('cardTypes.generate.stock.help')}
              >
                <Switch />
              </Form.Item>
            </>
          ) : (
            <>
              <Form.Item name="kind" {...field('kind')}>
                <Radio.Group
                  options={(['time', 'count'] as const).map((value) => ({ value, label: t(`cards.kinds.${value}`) }))}
                />
              </Form.Item>
              <Form.Item {...field('duration')} required>
                <Space.Compact style={{ width: '100%' }}>
                  <Form.Item
                    name="duration"
                    noStyle
                    rules={[
                      { required: true },
                      { type: 'integer', min: 0 },
                      {
                        validator: async (_, value: number) => {
                          if (value * UNITS[form.getFieldValue('unit') as Unit] > MAX_INT32) throw new Error(`≤ ${MAX_INT32} s`);
                        },
                      },
                    ]}
                  >
                    <InputNumber precision={0} aria-label={t('generate.duration.label')} style={{ width: '60%' }} />
                  </Form.Item>
                  <Form.Item name="unit" noStyle>
                    <Select
                      aria-label={t('generate.duration.label')}
                      style={{ width: '40%' }}
                      options={(Object.keys(UNITS) as Unit[]).map((unit) => ({
                        value: unit,
                        label: t(`generate.units.${unit}`),
                      }))}
                    />
                  </Form.Item>
                </Space.Compact>
              </Form.Item>
              {kind === 'count' && (
                <Form.Item
                  name="uses"
                  {...field('uses')}
                  rules={[{ required: true }, { type: 'integer', min: 1, max: 1_000_000 }]}
                >
                  <InputNumber precision={0} style={{ width: '100%' }} />
                </Form.Item>
              )}
              <Form.Item name="device_limit" {...field('device_limit')} rules={[{ type: 'integer', min: 1, max: 1000 }]}>
                <InputNumber precision={0} style={{ width: '100%' }} />
              </Form.Item>
              <Form.Item {...field('concurrent_limit')}>
                <SeatLimitInputs
                  label={t('generate.concurrent_limit.label')}
                  unlimited={unlimitedSeats}
                  rules={[{ type: 'integer', min: 1, max: 1000 }]}
                />
              </Form.Item>
              <Form.Item name="prefix" {...field('prefix')} rules={[{ pattern: PREFIX, message: t('generate.prefixInvalid') }]}>
                <Input maxLength={16} />
              </Form.Item>
            </>
          )}
          <Form.Item name="note" {...field('note')} rules={[{ max: 200 }]}>
            <Input.TextArea maxLength={200} showCount autoSize={{ minRows: 1, maxRows: 4 }} />
          </Form.Item>
          {generate.error && <ErrorAlert error={generate.error} />}
        </Form>
      )}
    </Modal>
  );
}
