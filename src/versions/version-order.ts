/**
 * Version numbers of a program: 1 to 4 dot-separated numeric parts (`1`, `1.10`, `1.10.0`,
 * `2.0.0.17`), each at most 9 digits so that every part is an exact integer.
 */
export const VERSION_PATTERN = /^\d{1,9}(\.\d{1,9}){0,3}$/;
export const VERSION_MAX_LENGTH = 32;
export const VERSION_RULE = '1-4 dot-separated numeric parts, e.g. 1.10.0';

/** The numeric parts of a version, or null when it does not follow VERSION_PATTERN. */
export function parseVersion(text: string): number[] | null {
  if (typeof text !== 'string' || text.length > VERSION_MAX_LENGTH || !VERSION_PATTERN.test(text)) return null;
  return text.split('.').map(Number);
}

/**
 * Orders two versions part by part, numerically; a missing part counts as 0, so `1.2` equals
 * `1.2.0` and `1.10.0` is newer than `1.2.0`. Negative when a < b, 0 when equal, positive when a > b.
 * Throws on a string that is not a version (callers validate first).
 */
export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  if (!x || !y) throw new Error(`Not a version: ${!x ? a : b}`);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}
