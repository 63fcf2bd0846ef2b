import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
// The calendar's month and weekday names follow antd's zh_CN locale only once dayjs has that locale.
import 'dayjs/locale/zh-cn';
import { useTranslation } from 'react-i18next';

/** The API's longest statistics window, both days included. */
export const MAX_RANGE_DAYS = 366;
/** The presets offered beside the calendar: the last N days, today included. */
const PRESET_DAYS = [7, 14, 30, 90] as const;
const DAY = 'YYYY-MM-DD';

/** Calendar days from `from` to `to` (YYYY-MM-DD), both included, oldest first. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${from}T12:00:00Z`); at <= Date.parse(`${to}T12:00:00Z`); at += 86_400_000) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

/** The last `count` days ending on `today` (YYYY-MM-DD), as [from, to]. */
export function lastDaysRange(today: string, count: number): [string, string] {
  return [
    dayjs(today)
      .subtract(count - 1, 'day')
      .format(DAY),
    today,
  ];
}

/**
 * The statistics' days: a range of calendar days (of the display zone's `today`, which ends every
 * preset) up to the API's 366; no day after today.
 */
export function StatsRange({
  today,
  value,
  onChange,
}: {
  today: string;
  value: [string, string];
  onChange: (range: [string, string]) => void;
}) {
  const { t } = useTranslation();
  const last = dayjs(today);
  return (
    <DatePicker.RangePicker
      aria-label={t('operations.overview.range')}
      allowClear={false}
      value={[dayjs(value[0]), dayjs(value[1])]}
      presets={PRESET_DAYS.map((count) => {
        const [from, to] = lastDaysRange(today, count);
        return { label: t('operations.overview.days', { count }), value: [dayjs(from), dayjs(to)] as [Dayjs, Dayjs] };
      })}
      disabledDate={(day, { from }) =>
        day.isAfter(last, 'day') || (from !== undefined && Math.abs(day.diff(from, 'day')) >= MAX_RANGE_DAYS)
      }
      onChange={(range) => {
        if (range?.[0] && range[1]) onChange([range[0].format(DAY), range[1].format(DAY)]);
      }}
    />
  );
}
