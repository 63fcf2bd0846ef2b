import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';

/** Legacy fields as plain strings (a form or query string); a repeated or nested field is BAD_REQUEST. */
export type LegacyFields = Record<string, string>;

export function plainFields(source: unknown): LegacyFields {
  const out: LegacyFields = {};
  if (source === null || typeof source !== 'object') return out;
  for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
    if (typeof value !== 'string')
      throw new ServiceError(ErrorCode.BAD_REQUEST, `The field ${name} must be sent once, as plain text`, { details: [name] });
    out[name] = value;
  }
  return out;
}
