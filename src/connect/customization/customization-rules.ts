import { createHash, createHmac } from 'node:crypto';
import { TokenAlgorithm } from '../connect-customization.entity';

/** Field names of the Connect response that an owner may rename (decisions §8). */
export const CONNECT_FIELDS = [
  'status',
  'code',
  'reason',
  'data',
  'request_id',
  'token',
  'expires_at',
  'device_limit',
  'server_time',
  'machine_code',
  'announcement',
] as const;
export const TOKEN_PLACEHOLDERS = [
  'user_key',
  'serial',
  'program_id',
  'timestamp',
  'expires_at',
  'nonce',
  'device_limit',
  'secret',
] as const;
export const TOKEN_ALGORITHMS: readonly TokenAlgorithm[] = ['md5', 'sha256', 'hmac_sha256'];
export const MAX_TEMPLATE_LENGTH = 512;

export type TokenValues = Record<(typeof TOKEN_PLACEHOLDERS)[number], string>;

const RENAME_TARGET = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;
/** Names no rename may take: the other default fields, and `error_id`, which platform faults carry. */
const RESERVED_TARGETS: readonly string[] = [...CONNECT_FIELDS, 'error_id'];
/**
 * Names every JavaScript object already has (`__proto__`, `constructor`, `toString`, ...) and
 * `prototype`: as keys they reach object internals here and in clients, so a field would vanish.
 */
const OBJECT_INTERNALS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);
const PLACEHOLDER = /\{([^{}]*)\}/g;

/** Problems with a rename map; empty when it is valid. */
export function fieldNameProblems(renames: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const targets = new Set<string>();
  for (const [field, target] of Object.entries(renames)) {
    if (!(CONNECT_FIELDS as readonly string[]).includes(field)) {
      problems.push(`field_names: "${field}" cannot be renamed; allowed fields: ${CONNECT_FIELDS.join(', ')}`);
      continue;
    }
    if (typeof target !== 'string' || !RENAME_TARGET.test(target)) {
      problems.push(`field_names.${field}: must match [A-Za-z_][A-Za-z0-9_]{0,31}`);
    } else if (OBJECT_INTERNALS.has(target)) {
      problems.push(`field_names.${field}: "${target}" is a built-in JavaScript object property`);
    } else if (target !== field && RESERVED_TARGETS.includes(target)) {
      problems.push(`field_names.${field}: "${target}" is another default field name`);
    } else if (targets.has(target)) {
      problems.push(`field_names.${field}: "${target}" is used twice`);
    } else {
      targets.add(target);
    }
  }
  return problems;
}

/** Problems with a token template; empty when it is valid. */
export function templateProblems(template: string): string[] {
  const problems: string[] = [];
  if (template.length === 0 || template.length > MAX_TEMPLATE_LENGTH)
    problems.push(`token_template: must be 1-${MAX_TEMPLATE_LENGTH} characters`);
  for (const [, name] of template.matchAll(PLACEHOLDER)) {
    if (!(TOKEN_PLACEHOLDERS as readonly string[]).includes(name)) {
      problems.push(
        `token_template: unknown placeholder {${name}}; allowed placeholders: ${TOKEN_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}`,
      );
    }
  }
  return problems;
}

export function usesSecret(template: string): boolean {
  return template.includes('{secret}');
}

/** Replaces each whitelisted placeholder with its value; nothing else is interpreted. */
export function renderTemplate(template: string, values: TokenValues): string {
  // A whitelist check, not `name in values`: inherited names ({constructor}, {toString}) stay literal.
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    (TOKEN_PLACEHOLDERS as readonly string[]).includes(name) ? values[name as keyof TokenValues] : whole,
  );
}

/** Lowercase hex of the algorithm over the rendered template (`hmac_sha256` keys with the secret). */
export function customToken(algorithm: TokenAlgorithm, rendered: string, secret: string | null): string {
  if (algorithm === 'hmac_sha256') {
    if (!secret) throw new Error('hmac_sha256 needs a secret');
    return createHmac('sha256', secret).update(rendered).digest('hex');
  }
  return createHash(algorithm).update(rendered).digest('hex');
}
