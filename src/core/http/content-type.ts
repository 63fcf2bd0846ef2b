import { ErrorCode } from '../errors/error-code';
import { ServiceError } from '../errors/service-error';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
export const JSON_CONTENT_TYPE = 'application/json';

/** A client route reads one body type; any other (or none) is UNSUPPORTED_MEDIA_TYPE, before any work. */
export function requireContentType(request: { headers?: Record<string, unknown> }, expected: string): void {
  const actual = String(request.headers?.['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (actual !== expected) throw new ServiceError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, `Send the body as ${expected}`);
}
