import { Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { browserTimeZone, setTimeZone, timeZones, useTimeZone } from './time-zone';

/** The zone the console shows and takes dates in, per user (kept in this browser), searchable. */
export function TimeZoneSelect() {
  const { t } = useTranslation();
  const zone = useTimeZone();
  const options = useMemo(() => {
    const own = browserTimeZone();
    return timeZones().map((value) => ({ value, label: value === own ? `${value} (${t('time.browserZone')})` : value }));
  }, [t]);
  return (
    <Select
      aria-label={t('time.zone')}
      data-testid="time-zone"
      showSearch
      value={zone}
      onChange={setTimeZone}
      options={options}
      popupMatchSelectWidth={false}
      variant="borderless"
      style={{ maxWidth: 220 }}
    />
  );
}
