import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  OperationObject,
  ResponseObject,
  SchemaObject,
  SecuritySchemeObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { ClientFamilyName } from '../../core/client-families';
import { ERROR_CATALOG, ErrorCode } from '../../core/errors/error-code';
import { Family, familyOfPath } from '../envelope/family';
import { AuthScheme } from '../auth-scheme';
import { CONTRACT_EXTENSIONS } from './api-contract';
import { failureSchema, FAILURE_SCHEMAS, successSchema } from './envelope-schemas';
import { AUTH_FAILURES, BODY_ROUTE, clientFamilyFailures, EVERY_ROUTE } from './failure-sources';

/** What each authentication really sends (decisions §3); tokens are opaque, never JWTs. */
export const SECURITY_SCHEMES: Record<string, SecuritySchemeObject> = {
  adminBearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'opaque',
    description: 'Admin token from `POST /admin/v1/auth/login`',
  },
  sessionBearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'opaque',
    description: 'Session token of an SDK card or user login',
  },
  hmacSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Svc-Signature',
    description:
      'Lowercase hex HMAC-SHA256, keyed with the project API secret, of `METHOD\\nPATH\\nTIMESTAMP\\nNONCE\\nBODY` (decisions §3)',
  },
  hmacTimestamp: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Svc-Timestamp',
    description: 'Unix seconds; within ±300 s of the service clock',
  },
  hmacNonce: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Svc-Nonce',
    description: '8-96 of `[A-Za-z0-9_.:-]`, used once per program within 600 s (the ±300 s timestamp window on both sides)',
  },
  legacyMd5: {
    type: 'apiKey',
    in: 'query',
    name: 'sign',
    description:
      'Legacy parameter signature, sent as the fields `sign` and `t` (Unix seconds) of the form body, or of the query on a GET: lowercase hex MD5 of every other non-empty field sorted by name as `k=v` joined by `&`, then `&key=` and the legacy secret',
  },
  downloadSignature: {
    type: 'apiKey',
    in: 'query',
    name: 'sig',
    description: 'Part of a download address issued by the service, with `expires`',
  },
};

const SECURITY: Record<AuthScheme, Array<Record<string, string[]>>> = {
  none: [],
  'admin-bearer': [{ adminBearer: [] }],
  hmac: [{ hmacSignature: [], hmacTimestamp: [], hmacNonce: [] }],
  md5: [{ legacyMd5: [] }],
  'session-bearer': [{ sessionBearer: [] }],
  'signed-url': [{ downloadSignature: [] }],
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const JSON_TYPE = 'application/json';

/**
 * Completes what Nest's explorer produced from the decorators: security from the route's auth
 * scheme, the family's success envelope around the declared answer (client families answer 200),
 * and one response per HTTP status of the failures the route can give, in the family's envelope,
 * with the catalog codes listed. Client families answer some refusals with 200 (decisions §2):
 * that response is the success or the failure envelope.
 */
export function completeDocument(document: OpenAPIObject): OpenAPIObject {
  document.components ??= {};
  document.components.securitySchemes = SECURITY_SCHEMES;
  document.components.schemas ??= {};
  for (const { name, schema } of Object.values(FAILURE_SCHEMAS)) document.components.schemas[name] = schema;
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) completeOperation(document, familyOfPath(path), method, operation);
    }
    if (item.patch) withoutDefaults(document, item.patch);
  }
  return document;
}

/**
 * A PATCH body defaults nothing (a field left out keeps its value), but a mapped type (PartialType)
 * copies the create DTO's `default`s, which some client generators would then send: they go.
 */
function withoutDefaults(document: OpenAPIObject, operation: OperationObject): void {
  const body = operation.requestBody as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined;
  const ref = body?.content?.[JSON_TYPE]?.schema?.$ref;
  const schema = ref ? (document.components?.schemas?.[ref.split('/').pop()!] as SchemaObject | undefined) : undefined;
  for (const property of Object.values(schema?.properties ?? {})) delete (property as SchemaObject).default;
}

function completeOperation(document: OpenAPIObject, family: Family, method: string, operation: OperationObject): void {
  const auth = (take(operation, CONTRACT_EXTENSIONS.auth) as AuthScheme | undefined) ?? 'none';
  const clientFamily = take(operation, CONTRACT_EXTENSIONS.clientFamily) as ClientFamilyName | undefined;
  const httpsRequired = take(operation, CONTRACT_EXTENSIONS.httpsRequired) === true;
  const own = (take(operation, CONTRACT_EXTENSIONS.failures) as ErrorCode[] | undefined) ?? [];
  const extras = take(operation, CONTRACT_EXTENSIONS.extras) as Record<string, SchemaObject> | undefined;
  const successCode = take(operation, CONTRACT_EXTENSIONS.successCode) as number | undefined;
  const rateLimited = take(operation, CONTRACT_EXTENSIONS.rateLimited) as 'always' | 'writes' | undefined;
  operation.security = SECURITY[auth];

  const codes = new Set<ErrorCode>([
    ...EVERY_ROUTE,
    ...(['post', 'put', 'patch'].includes(method) ? BODY_ROUTE : []),
    ...(httpsRequired ? [ErrorCode.HTTPS_REQUIRED] : []),
    ...AUTH_FAILURES[auth],
    ...(clientFamily ? clientFamilyFailures(clientFamily) : []),
    ...own,
    ...(rateLimited === 'always' || (rateLimited === 'writes' && !['get', 'head'].includes(method))
      ? [ErrorCode.RATE_LIMITED]
      : []),
  ]);
  const responses = operation.responses as Record<string, ResponseObject>;
  const successStatus = completeSuccess(family, responses, extras, successCode);

  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes].sort((a, b) => a - b)) {
    const status = ERROR_CATALOG[code].http;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, group] of byStatus) {
    const failure = failureSchema(family, group);
    const listed = describeCodes(group);
    const success = responses[String(status)];
    if (status === successStatus && success?.content?.[JSON_TYPE]?.schema) {
      success.description = `${success.description}, or a refusal in the family's envelope:\n${listed}`;
      success.content[JSON_TYPE].schema = { oneOf: [success.content[JSON_TYPE].schema, failure] };
    } else {
      // Shared by every operation that fails alike, so the document lists each group once.
      const name = `${FAILURE_SCHEMAS[family].name}${status}_${group.join('_')}`;
      document.components!.responses ??= {};
      document.components!.responses[name] = { description: listed, content: { [JSON_TYPE]: { schema: failure } } };
      responses[String(status)] = { $ref: `#/components/responses/${name}` } as unknown as ResponseObject;
    }
  }
}

/** Wraps the declared answer in the family's envelope; returns the success status. */
function completeSuccess(
  family: Family,
  responses: Record<string, ResponseObject>,
  extras?: Record<string, SchemaObject>,
  successCode?: number,
): number {
  const status =
    Object.keys(responses)
      .map(Number)
      .find((s) => s >= 200 && s < 300) ?? 200;
  const declared = responses[String(status)] ?? { description: 'Success' };
  delete responses[String(status)];
  // Client families answer 200 whatever the method (envelope.interceptors.ts).
  const answered = family === 'admin' ? status : 200;
  if (!declared.description) declared.description = 'Success';
  const content = declared.content ?? (family === 'admin' ? undefined : { [JSON_TYPE]: { schema: { type: 'object' } } });
  const json = content?.[JSON_TYPE];
  if (json?.schema) json.schema = successSchema(family, json.schema as SchemaObject, extras, successCode);
  responses[String(answered)] = { ...declared, ...(content ? { content } : {}) };
  return answered;
}

function describeCodes(codes: ErrorCode[]): string {
  return codes.map((code) => `- \`${code}\` ${ErrorCode[code]}: ${ERROR_CATALOG[code].message}`).join('\n');
}

function take(operation: OperationObject, key: string): unknown {
  const record = operation as unknown as Record<string, unknown>;
  const value = record[key];
  delete record[key];
  return value;
}
