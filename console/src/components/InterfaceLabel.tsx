import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** An interface by its API name (what the platform, quotas and logs call it) with what it is for, in one line. */
export function InterfaceLabel({ name, children }: { name: string; children?: React.ReactNode }) {
  const { t, i18n } = useTranslation();
  const key = `interfaces.${name}`;
  return (
    <div className="interface-label">
      <Typography.Text code>{name}</Typography.Text> {children}
      {i18n.exists(key) && (
        <div>
          <Typography.Text type="secondary" className="interface-description">
            {t(key)}
          </Typography.Text>
        </div>
      )}
    </div>
  );
}
