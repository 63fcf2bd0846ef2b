/**
 * The input boundary's pure rules (docs/security.md): what no text field of any family may carry,
 * how deep a body may nest, and which encodings are broken. The guard in `input-boundary.guard.ts`
 * applies them to every request; the legacy transport applies them to decrypted fields.
 */

/** Deeper JSON (or bracket-nested form fields) is refused before any transformation walks it. */
export const MAX_INPUT_DEPTH = 32;

/**
 * Free-text fields that may hold line breaks and tabs (announcement content, changelogs, notes,
 * remote variable values, token templates), the legacy `data` ciphertext (base64 that old
 * clients wrap in lines), and a payment gateway's RSA keys (PEM is lines). Every other field is one line.
 */
export const MULTILINE_FIELDS: ReadonlySet<string> = new Set([
  'content',
  'changelog',
  'note',
  'value',
  'token_template',
  'data',
  'private_key',
  'alipay_public_key',
]);

/** Keys that reach JavaScript object internals when an object is merged or renamed. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

// C0 controls, DEL and C1 controls, and lone UTF-16 surrogates (\p{Cs} matches only an unpaired one in `u` mode).
const SINGLE_LINE_BAD = /[\u0000-\u001f\u007f-\u009f\p{Cs}]/u;
const MULTILINE_BAD = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\p{Cs}]/u;

const BAD_TEXT = 'contains a control character or an unpaired surrogate';

export interface InputProblem {
  field: string;
  reason: string;
}

/** An object or array still to look into; its path is only spelled out if something in it is refused. */
interface Container {
  value: object;
  /** The field name its strings are checked under (an array's items under the array's name). */
  field: string;
  depth: number;
  parent: Container | null;
  /** Its key in the parent: `.key`, or `[index]` in an array. */
  segment: string;
}

function segmentOf(inArray: boolean, key: string): string {
  return inArray ? `[${key}]` : `.${key}`;
}

function pathOf(container: Container, child?: string): string {
  let path = child ?? '';
  for (let at: Container | null = container; at; at = at.parent) path = at.segment + path;
  return path;
}

/**
 * The first problem in a parsed body, query or parameter set, or null. Iterative: depth cannot
 * overflow the stack. Strings are checked where they are found: only objects and arrays are queued.
 */
export function findInputProblem(root: unknown, where: string): InputProblem | null {
  if (typeof root === 'string') return SINGLE_LINE_BAD.test(root) ? { field: where, reason: BAD_TEXT } : null;
  if (root === null || typeof root !== 'object') return null;
  const stack: Container[] = [{ value: root, field: '', depth: 0, parent: null, segment: where }];
  while (stack.length > 0) {
    const container = stack.pop()!;
    if (container.depth >= MAX_INPUT_DEPTH)
      return { field: pathOf(container), reason: `nests deeper than ${MAX_INPUT_DEPTH} levels` };
    const isArray = Array.isArray(container.value);
    const fields = container.value as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      if (FORBIDDEN_KEYS.has(key) || SINGLE_LINE_BAD.test(key))
        return { field: pathOf(container, segmentOf(isArray, key)), reason: 'is not an acceptable field name' };
      const value = fields[key];
      const field = isArray ? container.field : key;
      if (typeof value === 'string') {
        if ((MULTILINE_FIELDS.has(field) ? MULTILINE_BAD : SINGLE_LINE_BAD).test(value))
          return { field: pathOf(container, segmentOf(isArray, key)), reason: BAD_TEXT };
      } else if (value !== null && typeof value === 'object') {
        stack.push({ value, field, depth: container.depth + 1, parent: container, segment: segmentOf(isArray, key) });
      }
    }
  }
  return null;
}

/**
 * True when url-encoded text (a query string or a form body) has a percent escape that is not
 * UTF-8: parsers keep such bytes raw or replace them silently, so the boundary refuses them.
 */
export function hasBrokenPercentEncoding(text: string): boolean {
  if (!text.includes('%')) return false;
  for (const part of text.split(/[&=]/)) {
    if (!part.includes('%')) continue;
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return true;
    }
  }
  return false;
}
