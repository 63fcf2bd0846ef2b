import { Button, InputNumber, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DURATION_UNITS, useFormat, type DurationUnit } from './format';

const SIZE: Record<DurationUnit, number> = Object.fromEntries(DURATION_UNITS.map(([size, name]) => [name, size])) as Record<
  DurationUnit,
  number
>;

/** The largest unit that shows `seconds` as a whole number (0 shows in the largest unit allowed). */
function unitOf(seconds: number | null | undefined, units: readonly DurationUnit[]): DurationUnit {
  if (!seconds) return units[0];
  return units.find((unit) => seconds % SIZE[unit] === 0) ?? units[units.length - 1];
}

interface Props {
  /** Seconds, as the API takes them (Form.Item binds value and onChange). */
  value?: number | null;
  onChange?: (seconds: number | null) => void;
  id?: string;
  disabled?: boolean;
  /** Units offered, largest first. */
  units: readonly DurationUnit[];
  /** One click sets these (seconds); 0 reads "off" when `zeroIsOff`. */
  presets: readonly number[];
  zeroIsOff?: boolean;
  /** The field's name, so the unit and the presets say which duration they set. */
  label: string;
  'aria-invalid'?: boolean | 'true' | 'false';
}

/**
 * A duration shown and entered as an amount and a unit (days, hours, …) with presets, never as raw
 * seconds; the form still holds seconds, so the API's limits and the PATCH body are unchanged.
 */
export function DurationInput({ value, onChange, id, disabled, units, presets, zeroIsOff, label: field, ...rest }: Props) {
  const { t } = useTranslation();
  const format = useFormat();
  const [unit, setUnit] = useState<DurationUnit>(() => unitOf(value, units));
  // A value set from outside (a preset, a reset) that the chosen unit cannot show whole picks its unit.
  const shownUnit = value && value % SIZE[unit] !== 0 ? unitOf(value, units) : unit;
  const amount = value === null || value === undefined ? null : value / SIZE[shownUnit];
  const label = (seconds: number) => (seconds === 0 && zeroIsOff ? t('time.off') : format.span(seconds));
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }}>
      <Space.Compact style={{ width: '100%' }}>
        <InputNumber
          id={id}
          aria-invalid={rest['aria-invalid']}
          min={0}
          precision={0}
          disabled={disabled}
          value={amount}
          onChange={(next) => onChange?.(next === null ? null : next * SIZE[shownUnit])}
          style={{ width: '100%' }}
        />
        <Select<DurationUnit>
          aria-label={`${field}: ${t('time.unit')}`}
          disabled={disabled}
          value={shownUnit}
          style={{ width: 110 }}
          onChange={(next) => {
            setUnit(next);
            if (amount !== null) onChange?.(amount * SIZE[next]);
          }}
          options={units.map((name) => ({ value: name, label: t(`time.units.${name}`) }))}
        />
      </Space.Compact>
      <Space size={0} wrap aria-label={`${field}: ${t('time.presets')}`} role="group">
        {presets.map((seconds) => (
          <Button
            key={seconds}
            size="small"
            type={value === seconds ? 'primary' : 'link'}
            disabled={disabled}
            onClick={() => {
              setUnit(unitOf(seconds, units));
              onChange?.(seconds);
            }}
          >
            {label(seconds)}
          </Button>
        ))}
      </Space>
    </Space>
  );
}
