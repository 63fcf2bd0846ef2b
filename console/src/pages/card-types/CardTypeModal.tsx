import { useMutation } from '@tanstack/react-query';
import { App, Form, Input, InputNumber, Modal, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { DurationInput } from '../../components/DurationInput';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useCurrencySign } from '../../components/format';
import { SeatLimitInputs } from '../cards/SeatLimitInputs';
import {
  FEATURE,
  KEY_ALPHABETS,
  KEY_ALPHABET_NAMES,
  KEY_LENGTH,
  MAX_CODE_LENGTH,
  MAX_FEATURES,
  MAX_INT32,
  PREFIX,
  PRESETS,
  PRESET_NAMES,
  changes,
  keyBits,
  minKeyLength,
  presetOf,
  toBody,
  toDraft,
  type CardTypeDraft,
  type KeyAlphabet,
  type Preset,
} from './card-type-form';
import { createCardType, updateCardType, type CardType } from './card-type-queries';

const texts = 'cardTypes.form';

/** Creates a type, or edits one (only what changed is sent). A preset fills the kind, validity and logins. */
export function CardTypeModal({
  projectId,
  type,
  onClose,
  onSaved,
}: {
  projectId: string;
  type: CardType | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<CardTypeDraft>();
  const kind = Form.useWatch('kind', form);
  const duration = Form.useWatch('duration_seconds', form);
  const unlimitedSeats = Form.useWatch('unlimited_seats', form);
  const keyLength = Form.useWatch('key_length', form);
  const keyAlphabet = Form.useWatch('key_alphabet', form);
  const currencySign = useCurrencySign();
  const field = (name: string) => ({ label: t(`${texts}.${name}.label`), extra: t(`${texts}.${name}.help`) });
  const save = useMutation({
    mutationFn: (draft: CardTypeDraft) => {
      const body = toBody(draft);
      return type ? updateCardType(projectId, type.id, changes(type, body)) : createCardType(projectId, body);
    },
    onSuccess: () => {
      void message.success(t('cardTypes.saved'));
      onSaved();
    },
  });

  const applyPreset = (preset: Preset) => {
    const name = (form.getFieldValue('name') as string | undefined)?.trim() ?? '';
    // An empty name, or one a preset suggested, follows the preset; a name the author typed stays.
    const suggested = !name || PRESET_NAMES.some((other) => t(`${texts}.presetNames.${other}`) === name);
    form.setFieldsValue({ ...PRESETS[preset], ...(suggested ? { name: t(`${texts}.presetNames.${preset}`) } : {}) });
    void form.validateFields(['duration_seconds']).catch(() => undefined);
  };

  return (
    <Modal
      open
      title={type ? t('cardTypes.editTitle', { name: type.name }) : t('cardTypes.addTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      width={640}
    >
      <Form<CardTypeDraft>
        form={form}
        layout="vertical"
        name="card-type"
        initialValues={type ? toDraft(type) : { ...toDraft(null), name: t(`${texts}.presetNames.month`) }}
        onFinish={(draft) => save.mutate(draft)}
        disabled={save.isPending}
      >
        <Form.Item {...field('preset')}>
          <Radio.Group
            optionType="button"
            aria-label={t(`${texts}.preset.label`)}
            value={presetOf(kind, duration)}
            onChange={(event) => applyPreset(event.target.value as Preset)}
            options={PRESET_NAMES.map((preset) => ({ value: preset, label: t(`${texts}.presets.${preset}`) }))}
          />
        </Form.Item>
        <Form.Item name="name" {...field('name')} rules={[{ required: true, whitespace: true }, { max: 64 }]}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="kind" {...field('kind')}>
          <Radio.Group options={(['time', 'count'] as const).map((value) => ({ value, label: t(`cards.kinds.${value}`) }))} />
        </Form.Item>
        <Form.Item
          name="duration_seconds"
          {...field('duration')}
          rules={[{ required: true }, { type: 'integer', min: 0, max: MAX_INT32 }]}
        >
          <DurationInput units={['day', 'hour', 'minute']} presets={[]} label={t(`${texts}.duration.label`)} />
        </Form.Item>
        {kind === 'count' && (
          <Form.Item name="uses" {...field('uses')} rules={[{ required: true }, { type: 'integer', min: 1, max: 1_000_000 }]}>
            <InputNumber precision={0} style={{ width: '100%' }} />
          </Form.Item>
        )}
        <Form.Item
          name="device_limit"
          {...field('device_limit')}
          rules={[{ required: true }, { type: 'integer', min: 1, max: 1000 }]}
        >
          <InputNumber precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item {...field('concurrent_limit')}>
          <SeatLimitInputs
            label={t(`${texts}.concurrent_limit.label`)}
            unlimited={unlimitedSeats}
            rules={[{ required: !unlimitedSeats }, { type: 'integer', min: 1, max: 1000 }]}
          />
        </Form.Item>
        <Form.Item
          name="features"
          {...field('features')}
          rules={[
            {
              validator: async (_, features: string[] | undefined) => {
                const bad = (features ?? []).find((name) => !FEATURE.test(name));
                if (bad !== undefined) throw new Error(t(`${texts}.featureInvalid`, { name: bad }));
                if ((features ?? []).length > MAX_FEATURES) throw new Error(t(`${texts}.tooManyFeatures`));
              },
            },
          ]}
        >
          <Select mode="tags" open={false} tokenSeparators={[',', ' ', '，']} suffixIcon={null} />
        </Form.Item>
        <Form.Item
          name="price"
          {...field('price')}
          rules={[{ required: true }, { type: 'number', min: 0, max: MAX_INT32 / 100 }]}
        >
          <InputNumber min={0} precision={2} step={1} prefix={currencySign || undefined} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="agent_allowed" valuePropName="checked" {...field('agent_allowed')}>
          <Switch />
        </Form.Item>
        <Form.Item name="prefix" {...field('prefix')} rules={[{ pattern: PREFIX, message: t('generate.prefixInvalid') }]}>
          <Input maxLength={16} onChange={() => void form.validateFields(['key_length']).catch(() => undefined)} />
        </Form.Item>
        <Form.Item name="key_alphabet" {...field('key_alphabet')}>
          <Select
            onChange={() => void form.validateFields(['key_length']).catch(() => undefined)}
            options={KEY_ALPHABET_NAMES.map((name) => ({
              value: name,
              label: `${t(`${texts}.alphabets.${name}`)} (${KEY_ALPHABETS[name].length})`,
            }))}
          />
        </Form.Item>
        <Form.Item
          name="key_length"
          label={t(`${texts}.key_length.label`)}
          extra={
            keyAlphabet && keyLength
              ? t(`${texts}.key_length.bits`, { bits: Math.floor(keyBits(keyLength, keyAlphabet)) })
              : t(`${texts}.key_length.help`)
          }
          dependencies={['key_alphabet', 'prefix']}
          rules={[
            { required: true },
            { type: 'integer', min: KEY_LENGTH.min, max: KEY_LENGTH.max },
            {
              // The API's checks, so the author learns before saving: enough entropy, and a code that fits.
              validator: async (_, length: number | undefined) => {
                const alphabet = form.getFieldValue('key_alphabet') as KeyAlphabet;
                if (!length || !alphabet) return;
                if (length < minKeyLength(alphabet)) {
                  throw new Error(t(`${texts}.key_length.tooShort`, { count: minKeyLength(alphabet) }));
                }
                const prefix = (form.getFieldValue('prefix') as string | undefined) ?? '';
                if (prefix.length + length > MAX_CODE_LENGTH) {
                  throw new Error(t(`${texts}.key_length.tooLong`, { count: MAX_CODE_LENGTH - prefix.length }));
                }
              },
            },
          ]}
        >
          <InputNumber precision={0} min={KEY_LENGTH.min} max={KEY_LENGTH.max} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="enabled" valuePropName="checked" {...field('enabled')}>
          <Switch />
        </Form.Item>
        <Form.Item name="for_sale" valuePropName="checked" {...field('for_sale')}>
          <Switch />
        </Form.Item>
        <Form.Item name="stock_mode" {...field('stock_mode')}>
          <Radio.Group
            options={(['mint', 'stock'] as const).map((mode) => ({ value: mode, label: t(`${texts}.stock_mode.${mode}`) }))}
          />
        </Form.Item>
      </Form>
      {save.error && <ErrorAlert error={save.error} />}
    </Modal>
  );
}
