/**
 * The input boundary's pure rules (docs/security.md): what no text field of any family may carry,
 * how deep a body may nest, and which encodings are broken. The guard in `input-boundary.guard.ts`
 * applies them to every request; the legacy transport applies them to decrypted fields.
 */

/** Deeper JSON (or bracket-nested form fields) is refused before any transformation walks it. */
export const MAX_INPUT_DEPTH = 32;

/**
 * Free-text fields that may hold line breaks and tabs (announcement content, changelogs, notes,
 * remote variable values, token templates) and the legacy `data` ciphertext (base64 that old
 * clients wrap in lines). Every other field is one line.
 */
export const MULTILINE_FIELDS: ReadonlySet<string> = new Set(['content', 'changelog', 'note', 'value', 'token_template', 'data']);

/** Keys that reach JavaScript object internals when an object is merged or renamed. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

// C0 controls, DEL and C1 controls, and lone UTF-16 surrogates (\p{Cs} matches only an unpaired one in `u` mode).
const SINGLE_LINE_BAD = /[\u0000-\u001f\u007f-\u009f\p{Cs}]/u;
const MULTILINE_BAD = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\p{Cs}]/u;

export interface InputProblem {
  field: string;
  reason: string;
}

/** The first problem in a parsed body, query or parameter set, or null. Iterative: depth cannot overflow the stack. */
export function findInputProblem(root: unknown, where: string): InputProblem | null {
  const stack: Array<{ value: unknown; path: string; key: string; depth: number }> = [{ value: root, path: where, key: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, key, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const bad = MULTILINE_FIELDS.has(key) ? MULTILINE_BAD : SINGLE_LINE_BAD;
      if (bad.test(value)) return { field: path, reason: 'contains a control character or an unpaired surrogate' };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) return { field: path, reason: `nests deeper than ${MAX_INPUT_DEPTH} levels` };
    for (const [childKey, child] of Object.entries(value)) {
      const childPath = Array.isArray(value) ? `${path}[${childKey}]` : `${path}.${childKey}`;
      if (FORBIDDEN_KEYS.has(childKey) || SINGLE_LINE_BAD.test(childKey)) return { field: childPath, reason: 'is not an acceptable field name' };
      stack.push({ value: child, path: childPath, key: Array.isArray(value) ? key : childKey, depth: depth + 1 });
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
