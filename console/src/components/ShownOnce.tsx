import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface ShownOnceProps {
  title: string;
  /** Label and value of each secret. */
  values: Array<{ label: string; value: string }>;
  /** What to tell beside "copy these now"; the default speaks of a project's secrets. */
  warning?: string;
  onDone: () => void;
}

/**
 * Secrets the service answers once (a new project's, a rotated one): each with a copy button, a
 * warning, and no way to close by accident — only "I have stored them" closes it.
 */
export function ShownOnce({ title, values, warning, onDone }: ShownOnceProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={title}
      closable={false}
      keyboard={false}
      mask={{ closable: false }}
      width={640}
      footer={
        <Button type="primary" onClick={onDone} autoFocus>
          {t('shownOnce.saved')}
        </Button>
      }
    >
      <Alert
        type="warning"
        showIcon
        title={t('shownOnce.title')}
        description={warning ?? t('shownOnce.warning')}
        className="block-gap"
      />
      <Descriptions column={1} bordered size="small" data-testid="shown-once">
        {values.map(({ label, value }) => (
          <Descriptions.Item key={label} label={label}>
            <Typography.Text code copyable className="secret-value">
              {value}
            </Typography.Text>
          </Descriptions.Item>
        ))}
      </Descriptions>
    </Modal>
  );
}
