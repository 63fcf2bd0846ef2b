import 'reflect-metadata';

/**
 * Field names whose values never enter the audit trail, at any depth: passwords, tokens, secrets,
 * keys (API, transport, private, signing), TOTP codes and secrets, recovery codes, card keys.
 */
const SECRET_NAME = /pass(word)?|secret|token|private|totp|recovery|otp|signature|(^|_)keys?$|^codes?$|^challenge$|^licence$/i;
const SECRET_FIELDS = Symbol.for('cardkey.audit-secret-fields');
export const REDACTED = '[redacted]';

/** Marks a DTO field as secret for the audit trail whatever its name (e.g. a variable's value). */
export function AuditSecret(): PropertyDecorator {
  return (target, key) => {
    const own: Set<string> =
      Reflect.getOwnMetadata(SECRET_FIELDS, target) ?? new Set(Reflect.getMetadata(SECRET_FIELDS, target) ?? []);
    own.add(String(key));
    Reflect.defineMetadata(SECRET_FIELDS, own, target);
  };
}

export function secretFieldsOf(dto: unknown): ReadonlySet<string> {
  return typeof dto === 'function'
    ? ((Reflect.getMetadata(SECRET_FIELDS, dto.prototype) as Set<string> | undefined) ?? new Set())
    : new Set();
}

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** A JSON copy with every secret field's value replaced; long strings are cut so a row stays small. */
export function redact(value: unknown, secretFields: ReadonlySet<string> = new Set(), depth = 0): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (depth > 4) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redact(v, secretFields, depth + 1));
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[k] = isSecretName(k) || secretFields.has(k) ? REDACTED : redact(v, secretFields, depth + 1);
    return out;
  }
  if (typeof value === 'string' && value.length > 500) return `${value.slice(0, 500)}…`;
  return value;
}
