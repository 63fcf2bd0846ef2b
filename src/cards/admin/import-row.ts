import { MAX_INT32 } from '../../common/limits';
import { CARD_KINDS, CardKind, CardStatus } from '../card.entity';
import { MAX_CARD_USES } from '../../common/limits';
import { ImportProblemReason } from './import-problems';
import { parseIsoInstant } from './iso-instant';
import { ImportColumn, ImportDefaults, ImportRow, IMPORT_STATUSES } from './import-format';

/** The import's validate stage: one row's cells to a card row, or the problems of each bad value. */

const MAX_CODE_LENGTH = 64;
const MAX_NOTE_LENGTH = 200;
const MAX_MACHINE_CODE_LENGTH = 128;
const MAX_DEVICES = 1000;
const MAX_USE_COUNT = Number.MAX_SAFE_INTEGER;

// C0 controls, DEL and C1 controls, lone surrogates; notes may hold tabs and line breaks (input-rules.ts).
const SINGLE_LINE_BAD = /[\u0000-\u001f\u007f-\u009f\p{Cs}]/u;
const MULTILINE_BAD = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\p{Cs}]/u;
/** The export's formula guard (cards-csv.ts, OWASP): a `'` before one of these is taken off again. */
const ESCAPED_FORMULA = /^'[=+\-@\t\r]/;

/** A cell as it was before the export's formula guard. */
export function unescapeFormula(value: string): string {
  return ESCAPED_FORMULA.test(value) ? value.slice(1) : value;
}

/** Reads one row's cells; `problem` is called for each bad value. */
export function readRow(
  line: number,
  cells: Map<string, string>,
  defaults: ImportDefaults,
  problem: (field: ImportColumn, reason: ImportProblemReason, params?: Record<string, string | number>) => void,
): ImportRow {
  const has = (name: ImportColumn) => cells.has(name) && cells.get(name) !== '';
  const text = (name: ImportColumn) => cells.get(name) ?? '';
  for (const [name, value] of cells) {
    const bad = name === 'note' || name === 'devices' ? MULTILINE_BAD : SINGLE_LINE_BAD;
    if (bad.test(value)) problem(name as ImportColumn, 'control_character');
  }
  const integer = (name: ImportColumn, min: number, max: number): number | null => {
    if (!has(name)) return null;
    const value = text(name);
    if (!/^\d{1,16}$/.test(value) || Number(value) < min || Number(value) > max) {
      problem(name, 'whole_number', { min, max });
      return null;
    }
    return Number(value);
  };
  const instant = (name: ImportColumn): Date | null => {
    if (!has(name)) return null;
    const date = parseIsoInstant(text(name));
    if (!date) problem(name, 'iso_time');
    return date;
  };

  const code = text('code');
  if (!code) problem('code', 'required');
  else if ([...code].length > MAX_CODE_LENGTH) problem('code', 'too_long', { max: MAX_CODE_LENGTH });
  else if (code.trim() !== code) problem('code', 'code_spaces');

  const kinds: readonly string[] = defaults.type ? [defaults.type.kind] : CARD_KINDS;
  let kind: CardKind = defaults.type?.kind ?? 'time';
  if (has('kind')) {
    if (kinds.includes(text('kind'))) kind = text('kind') as CardKind;
    else problem('kind', 'one_of', { values: kinds.join(', ') });
  }
  let usesLeft: number | null = null;
  if (kind === 'count') {
    if (!has('uses_left') && defaults.type?.uses != null) usesLeft = defaults.type.uses;
    else if (!has('uses_left')) problem('uses_left', 'uses_left_required');
    else usesLeft = integer('uses_left', 0, MAX_CARD_USES);
  } else if (has('uses_left')) {
    problem('uses_left', 'uses_left_time_card');
  }

  const activatedAt = instant('activated_at');
  const activated = has('activated_at');
  const expiresAt = instant('expires_at');
  if (has('expires_at') && !activated) problem('expires_at', 'expiry_needs_activation');

  let durationSeconds = defaults.type?.durationSeconds ?? 0;
  if (has('duration_seconds')) durationSeconds = integer('duration_seconds', 0, MAX_INT32) ?? 0;
  else if (!activated && !defaults.type) problem('duration_seconds', 'duration_required');

  const deviceLimit = has('device_limit') ? (integer('device_limit', 1, 1000) ?? defaults.deviceLimit) : defaults.deviceLimit;
  // An empty cell is "unlimited", as the export writes it; an absent column takes the project's setting.
  const concurrentLimit = !cells.has('concurrent_limit')
    ? defaults.concurrentLimit
    : has('concurrent_limit')
      ? integer('concurrent_limit', 1, 1000)
      : null;

  const note = has('note') ? text('note') : null;
  if (note !== null && [...note].length > MAX_NOTE_LENGTH) problem('note', 'too_long', { max: MAX_NOTE_LENGTH });

  let status: CardStatus = activated ? 'active' : 'unused';
  // A stock import also reads back the data export of stock cards (status `stock`).
  const statuses: readonly string[] = defaults.stock ? [...IMPORT_STATUSES, 'stock'] : IMPORT_STATUSES;
  if (has('status')) {
    const value = text('status');
    if (!statuses.includes(value)) problem('status', 'one_of', { values: statuses.join(', ') });
    else status = value as CardStatus;
  }
  if (defaults.stock) {
    // A stock card is one nobody bought yet: never activated, no devices, unused (decisions §26).
    if (has('status') && status !== 'unused' && status !== 'stock') problem('status', 'stock_not_unused');
    if (activated) problem('activated_at', 'stock_not_unused');
    if (has('devices')) problem('devices', 'stock_not_unused');
  } else {
    if (status === 'unused' && activated) problem('status', 'unused_but_activated');
    if (status === 'active' && !activated) problem('activated_at', 'activation_required');
  }

  const useCount = integer('use_count', 0, MAX_USE_COUNT) ?? 0;
  const unbindCount = integer('unbind_count', 0, MAX_INT32) ?? 0;
  const lastLoginAt = instant('last_login_at');

  const devices = has('devices')
    ? text('devices')
        .split(/\r?\n/)
        .filter((m) => m !== '')
    : [];
  if (devices.length && !activated) problem('devices', 'devices_need_activation');
  if (devices.length > MAX_DEVICES) problem('devices', 'too_many_devices', { max: MAX_DEVICES });
  if (devices.some((m) => [...m].length > MAX_MACHINE_CODE_LENGTH))
    problem('devices', 'machine_code_too_long', { max: MAX_MACHINE_CODE_LENGTH });
  if (new Set(devices).size !== devices.length) problem('devices', 'device_twice');
  // More bound devices than the card admits would let more machines in than it allows: the row is refused, not trimmed.
  if (devices.length > deviceLimit && devices.length <= MAX_DEVICES)
    problem('devices', 'devices_over_limit', { max: deviceLimit });

  return {
    line,
    code,
    kind,
    usesLeft,
    durationSeconds,
    deviceLimit,
    concurrentLimit,
    note,
    status: defaults.stock ? 'stock' : status,
    activatedAt,
    expiresAt,
    useCount,
    unbindCount,
    lastLoginAt,
    devices,
  };
}
