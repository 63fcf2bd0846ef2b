import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtension, ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ErrorCode } from '../../core/errors/error-code';

/**
 * Decorators that state a route's contract for the OpenAPI document. They only describe: the
 * document's completion step (complete-document.ts) turns them into the family's envelopes, its
 * status codes and its listed catalog codes, so each rule of the envelope is written once.
 */

/** Extension keys read (and removed) by the completion step. */
export const CONTRACT_EXTENSIONS = {
  auth: 'x-cardkey-auth',
  clientFamily: 'x-cardkey-client-family',
  /** The route refuses plain HTTP in production (https-required.guard.ts). */
  httpsRequired: 'x-cardkey-https-required',
  failures: 'x-cardkey-failures',
  extras: 'x-cardkey-extras',
  successCode: 'x-cardkey-success-code',
  /** The API key scope that opens an admin route to keys (src/admin-auth/api-keys/api-key-scopes.ts). */
  apiKeyScope: 'x-cardkey-api-key-scope',
  /** `always`, or `writes` (every method but GET and HEAD): the route may answer RATE_LIMITED (route-rate.guard.ts). */
  rateLimited: 'x-cardkey-rate-limited',
} as const;

/** A schema given as a class with `@ApiProperty` fields, or inline. */
export type ContractSchema = Type<unknown> | SchemaObject;

export function schemaOf(schema: ContractSchema, isArray = false): SchemaObject | ReferenceObject {
  const one: SchemaObject | ReferenceObject = typeof schema === 'function' ? { $ref: getSchemaPath(schema) } : schema;
  return isArray ? { type: 'array', items: one } : one;
}

const modelsOf = (...schemas: ContractSchema[]) => schemas.filter((s): s is Type<unknown> => typeof s === 'function');

export interface AnswerOptions {
  /** The answer is a list of `data`. */
  isArray?: boolean;
  /** Top-level fields beside `data` in the standard envelope (the login's token and statecode). */
  extras?: Record<string, SchemaObject>;
  /** A standard-family route whose success code is not 0 (the end user's unbind answers 1). */
  successCode?: number;
  /** HTTP status of the success (admin routes: 201 for a creation; client families always 200). */
  status?: number;
  description?: string;
  /** Classes an inline schema refers to by `getSchemaPath`. */
  models?: Array<Type<unknown>>;
}

/**
 * What a route answers on success. On a client family it is the envelope's `data` (the completion
 * step wraps it in that family's success envelope); on the admin API it is the whole body.
 */
export const ApiAnswer = (data: ContractSchema, options: AnswerOptions = {}) =>
  applyDecorators(
    ApiExtraModels(...modelsOf(data), ...(options.models ?? [])),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description ?? 'Success',
      schema: schemaOf(data, options.isArray),
    }),
    ...(options.extras ? [ApiExtension(CONTRACT_EXTENSIONS.extras, options.extras)] : []),
    ...(options.successCode !== undefined ? [ApiExtension(CONTRACT_EXTENSIONS.successCode, options.successCode)] : []),
  );

/** An admin list: one page of `item` with the paging of `PageQuery` (src/common/paging.ts). */
export const ApiPageAnswer = (item: Type<unknown>) =>
  ApiAnswer(
    {
      type: 'object',
      required: ['items', 'total', 'page', 'page_size'],
      properties: {
        items: { type: 'array', items: { $ref: getSchemaPath(item) } },
        total: { type: 'integer', description: 'Rows matching the filters, on every page' },
        page: { type: 'integer' },
        page_size: { type: 'integer' },
      },
    },
    { models: [item] },
  );

/** A whole (unpaged) list: `{items, total}`. */
export const ApiListAnswer = (item: Type<unknown>) =>
  ApiAnswer(
    {
      type: 'object',
      required: ['items', 'total'],
      properties: { items: { type: 'array', items: { $ref: getSchemaPath(item) } }, total: { type: 'integer' } },
    },
    { models: [item] },
  );

/** A route that answers 204 with no body. */
export const ApiNoContent = (description = 'Done; no body') => ApiResponse({ status: 204, description });

/**
 * The catalog codes a route gives besides those of its family, its authentication and its gate,
 * which the completion step adds itself.
 */
export const ApiFailures = (...codes: ErrorCode[]) => ApiExtension(CONTRACT_EXTENSIONS.failures, codes);

/** A client-family time: `YYYY-MM-DD HH:MM:SS` in the service's time zone (APP_TIMEZONE). */
export const LOCAL_TIME = {
  type: String,
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
  description: 'YYYY-MM-DD HH:MM:SS in the service time zone',
} as const;

/** The sibling `<name>_iso` of every client-family time: the same instant, ISO 8601 with the zone's offset. */
export const ISO_TIME = {
  type: String,
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}[+-]\\d{2}:\\d{2}$',
  example: '2026-11-29T12:00:00+08:00',
  description: 'the same instant as the field without _iso: ISO 8601 with the offset of the service time zone',
} as const;
