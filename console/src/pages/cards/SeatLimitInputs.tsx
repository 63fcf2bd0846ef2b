import { Checkbox, Form, InputNumber, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';

/**
 * A card's seat limit as a form edits it: `concurrent_limit` (a number) beside `unlimited_seats`
 * (the API's null), the number switched off while there is no limit. Used by generation and edit.
 */
export function SeatLimitInputs({ label, unlimited, rules }: { label: string; unlimited: boolean | undefined; rules: Rule[] }) {
  const { t } = useTranslation();
  return (
    <Space wrap>
      <Form.Item name="concurrent_limit" noStyle rules={rules}>
        <InputNumber precision={0} disabled={unlimited} aria-label={label} />
      </Form.Item>
      <Form.Item name="unlimited_seats" valuePropName="checked" noStyle>
        <Checkbox>{t('generate.unlimitedSeats')}</Checkbox>
      </Form.Item>
    </Space>
  );
}
