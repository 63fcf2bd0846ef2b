import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { unreachable } from '../../common/unreachable';
import { Family } from '../envelope/family';

/**
 * The four envelopes of render.ts as schemas (decisions §2): what every answer of a family looks
 * like, success and failure. render.spec.ts's shapes and these are checked against real answers by
 * the generated-client test (test/e2e/http/openapi.e2e-spec.ts).
 */

const REQUEST_ID: SchemaObject = { type: 'string', description: 'The request id, also in the X-Request-Id header' };
const ERROR_ID: SchemaObject = {
  type: 'string',
  description: 'Only on SYSTEM_ERROR (50000): the id of the log line with the fault',
};
const DETAILS: SchemaObject = {
  description: 'What exactly was refused: the field names, the rows of an import, the allowed values',
};

/** Failure envelopes by family, as named components. */
export const FAILURE_SCHEMAS: Record<Family, { name: string; schema: SchemaObject }> = {
  connect: {
    name: 'ConnectFailure',
    schema: {
      type: 'object',
      required: ['status', 'code', 'reason', 'request_id'],
      properties: {
        status: { type: 'boolean', enum: [false] },
        code: { type: 'integer', description: 'The catalog code, negated (decisions §2)' },
        reason: { type: 'string', description: "The catalog message, or the project's customized failure text" },
        request_id: REQUEST_ID,
        error_id: ERROR_ID,
      },
    },
  },
  standard: {
    name: 'StandardFailure',
    schema: {
      type: 'object',
      required: ['code', 'success', 'msg', 'request_id'],
      properties: {
        code: { type: 'integer' },
        success: { type: 'boolean', enum: [false] },
        msg: { type: 'string' },
        request_id: REQUEST_ID,
        error_id: ERROR_ID,
        details: DETAILS,
      },
    },
  },
  legacy: {
    name: 'LegacyFailure',
    schema: {
      type: 'object',
      required: ['code', 'msg', 'request_id'],
      properties: {
        code: { type: 'integer' },
        msg: { type: 'string' },
        request_id: REQUEST_ID,
        error_id: ERROR_ID,
        details: DETAILS,
      },
    },
  },
  admin: {
    name: 'AdminError',
    schema: {
      type: 'object',
      required: ['error', 'request_id'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: { type: 'integer' }, message: { type: 'string' }, details: DETAILS },
        },
        request_id: REQUEST_ID,
        error_id: ERROR_ID,
      },
    },
  },
};

/** The success body of a family around a route's `data` (admin answers are the data itself). */
export function successSchema(
  family: Family,
  data: SchemaObject,
  extras: Record<string, SchemaObject> = {},
  successCode?: number,
): SchemaObject {
  const message: SchemaObject = { type: 'string' };
  switch (family) {
    case 'admin':
      return data;
    case 'connect':
      return {
        type: 'object',
        required: ['status', 'code', 'reason', 'data', 'request_id'],
        properties: {
          status: { type: 'boolean', enum: [true] },
          code: { type: 'integer', enum: [1] },
          reason: message,
          data,
          request_id: REQUEST_ID,
        },
        description: "Field names may be renamed by the project's Connect customization (decisions §8)",
      };
    case 'standard':
      return {
        type: 'object',
        required: [...Object.keys(extras), 'code', 'success', 'msg', 'data', 'request_id'],
        properties: {
          ...extras,
          code: { type: 'integer', enum: [successCode ?? 0] },
          success: { type: 'boolean', enum: [true] },
          msg: message,
          data,
          request_id: REQUEST_ID,
        },
      };
    case 'legacy':
      return {
        type: 'object',
        required: ['code', 'msg', 'data', 'request_id'],
        properties: { code: { type: 'integer', enum: [1] }, msg: message, data, request_id: REQUEST_ID },
      };
    default:
      return unreachable(family, 'envelope family');
  }
}

/** The failure body of a family for these codes: the component, with `code` narrowed to them. */
export function failureSchema(family: Family, codes: number[]): SchemaObject {
  const ref = { $ref: `#/components/schemas/${FAILURE_SCHEMAS[family].name}` };
  const wire = family === 'connect' ? codes.map((c) => -c) : codes;
  const code: SchemaObject = { type: 'integer', enum: wire };
  return {
    allOf: [
      ref,
      family === 'admin'
        ? { type: 'object', properties: { error: { type: 'object', properties: { code } } } }
        : { type: 'object', properties: { code } },
    ],
  };
}
