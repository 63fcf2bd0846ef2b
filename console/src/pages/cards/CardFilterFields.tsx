import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CardStatus } from '../../api/client';

const STATUSES: CardStatus[] = ['unused', 'active', 'banned', 'consumed', 'stock'];

/** The filters every card list has — status, code, batch — as the API names them (`status`, `q`, `batch_id`). */
export function CardFilterFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="status">
        <Select
          aria-label={t('cards.status')}
          placeholder={t('cards.filters.status')}
          allowClear
          style={{ width: 150 }}
          options={STATUSES.map((status) => ({ value: status, label: t(`cards.statuses.${status}`) }))}
        />
      </Form.Item>
      <Form.Item name="q">
        <Input aria-label={t('cards.filters.code')} placeholder={t('cards.filters.code')} allowClear maxLength={64} />
      </Form.Item>
      <Form.Item name="batch_id" rules={[{ pattern: /^[0-9a-fA-F-]{36}$/, message: 'UUID' }]}>
        <Input aria-label={t('cards.filters.batch')} placeholder={t('cards.filters.batch')} allowClear />
      </Form.Item>
    </>
  );
}
