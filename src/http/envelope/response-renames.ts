import { requestContextOf } from '../request-context';

/**
 * Per-request renames of response field names (Connect customization). They apply to top-level
 * keys and to keys inside `data`, on successes and failures alike; values are never touched, so a
 * failure can never read as a success.
 */
export type FieldRenames = Readonly<Record<string, string>>;

/** Kept in the request's context (`req` undefined: the current request's), where the envelope and the filter find them. */
export function setResponseRenames(req: unknown, renames: FieldRenames): void {
  requestContextOf(req).responseRenames = renames;
}

export function responseRenamesOf(req: unknown): FieldRenames | undefined {
  return requestContextOf(req).responseRenames;
}

// Object.fromEntries defines each key as an own property: a target such as `__proto__` stays an
// ordinary JSON key instead of hitting the prototype setter (and the field vanishing).
export function applyRenames(body: unknown, renames: FieldRenames | undefined): unknown {
  if (!renames || Object.keys(renames).length === 0 || !isPlainObject(body)) return body;
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [
      renamedKey(key, renames),
      key === 'data' && isPlainObject(value) ? renameKeys(value, renames) : value,
    ]),
  );
}

function renameKeys(obj: Record<string, unknown>, renames: FieldRenames): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).map(([key, value]) => [renamedKey(key, renames), value]));
}

/** Own entries only: an inherited name (`constructor`, `toString`) of the map is no rename. */
function renamedKey(key: string, renames: FieldRenames): string {
  return Object.hasOwn(renames, key) ? renames[key] : key;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
