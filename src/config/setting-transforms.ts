import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** An integer setting from its text (anything else is left for the validator to refuse). */
export const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value)) ? Number(value) : value;
/** An empty variable (`X=`) counts as unset. */
export const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/** An IANA time zone this Node.js knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A request-rate limit: requests a window, 0 = that scope off. */
export const RateLimitSetting = () => applyDecorators(Transform(toInt), IsOptional(), IsInt(), Min(0), Max(1_000_000));
