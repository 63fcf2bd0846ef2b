import { SetMetadata } from '@nestjs/common';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
export const JSON_CONTENT_TYPE = 'application/json';
export const MULTIPART_CONTENT_TYPE = 'multipart/form-data';
/** The admin card import: read by its route off the raw stream, like multipart (no body parser reads it). */
export const CSV_CONTENT_TYPE = 'text/csv';

export type BodyType = 'form' | 'json' | 'multipart' | 'csv';
export const BODY_TYPE = 'cardkey:body-type';
export const CONTENT_TYPES: Readonly<Record<BodyType, string>> = {
  form: FORM_CONTENT_TYPE,
  json: JSON_CONTENT_TYPE,
  multipart: MULTIPART_CONTENT_TYPE,
  csv: CSV_CONTENT_TYPE,
};

/**
 * The one body type a route reads. The input boundary refuses any other (or none, on a client
 * route) with UNSUPPORTED_MEDIA_TYPE before any other check. Undeclared routes read their family's
 * type: form for Connect and legacy, JSON for SDK and the admin API.
 */
export const AcceptsBody = (type: BodyType) => SetMetadata(BODY_TYPE, type);

/** The media type of a request, lowercased, without parameters ('' when absent). */
export function mediaTypeOf(request: { headers?: Record<string, unknown> }): string {
  return String(request.headers?.['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
}
