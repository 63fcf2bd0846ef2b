/**
 * Per-request renames of response field names (Connect customization). They apply to top-level
 * keys and to keys inside `data`, on successes and failures alike; values are never touched, so a
 * failure can never read as a success.
 */
export type FieldRenames = Readonly<Record<string, string>>;

const RENAMES = Symbol.for('cardkey.responseRenames');
type WithRenames = { [RENAMES]?: FieldRenames };

export function setResponseRenames(req: unknown, renames: FieldRenames): void {
  (req as WithRenames)[RENAMES] = renames;
}

export function responseRenamesOf(req: unknown): FieldRenames | undefined {
  return (req as WithRenames | undefined)?.[RENAMES];
}

export function applyRenames(body: unknown, renames: FieldRenames | undefined): unknown {
  if (!renames || Object.keys(renames).length === 0 || !isPlainObject(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    out[renames[key] ?? key] = key === 'data' && isPlainObject(value) ? renameKeys(value, renames) : value;
  }
  return out;
}

function renameKeys(obj: Record<string, unknown>, renames: FieldRenames): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [renames[k] ?? k, v]));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
