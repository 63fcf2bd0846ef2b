/**
 * Why a line of a card import is refused: a stable `reason` that a client can translate (the
 * console does, in both its languages), the values it names (`params`), and the service's English
 * text built from them (`message`). One table, so the reasons, the texts and the OpenAPI enum agree.
 */
type Params = Record<string, string | number>;

export const IMPORT_PROBLEM_TEXTS = {
  // The CSV itself (csv-reader.ts).
  quote_not_closed: () => 'a quoted field is not closed',
  text_after_quote: () => 'text follows a closing quote (a quote inside a field must be doubled, in a quoted field)',
  quote_in_unquoted_field: () => 'a quote inside an unquoted field (quote the field and double the quote)',
  cell_too_long: (p: Params) => `the cell is longer than ${p.max} characters`,
  row_too_long: (p: Params) => `the row is longer than ${p.max} characters`,
  // The file and its header.
  file_empty: () => 'the file is empty: a header row and card rows are needed',
  header_unreadable: () => 'the header row cannot be read',
  column_twice: () => 'the column is named twice',
  column_unknown: (p: Params) => `unknown column; the columns are ${p.columns} (${p.ignored} are read past)`,
  code_column_missing: () => 'the header has no code column',
  no_card_rows: () => 'the file has no card rows',
  // A row.
  field_count: (p: Params) => `the row has ${p.fields} fields; the header has ${p.columns}`,
  control_character: () => 'contains a control character or an unpaired surrogate',
  whole_number: (p: Params) => `must be a whole number from ${p.min} to ${p.max}`,
  iso_time: () => 'must be an ISO 8601 time with an offset, e.g. 2026-01-31T23:59:59Z',
  required: () => 'is required',
  too_long: (p: Params) => `is longer than ${p.max} characters`,
  code_spaces: () => 'starts or ends with a space',
  one_of: (p: Params) => `must be one of ${p.values}`,
  uses_left_required: () => 'is required for a count card',
  uses_left_time_card: () => 'is for count cards only (leave it empty for a time card)',
  expiry_needs_activation: () =>
    'needs activated_at: a card never activated gets its expiry at its first login (from duration_seconds)',
  duration_required: () => 'is required for a card never activated (0 = permanent)',
  unused_but_activated: () => 'unused, but activated_at is set (an activated card is active or banned)',
  activation_required: () => 'is required for an active card',
  devices_need_activation: () => 'needs activated_at: a card never activated has no bound devices',
  too_many_devices: (p: Params) => `lists more than ${p.max} devices`,
  machine_code_too_long: (p: Params) => `has a machine code longer than ${p.max} characters`,
  device_twice: () => 'lists a machine code twice',
  devices_over_limit: (p: Params) => `lists more devices than the card's device limit (${p.max})`,
  stock_not_unused: () => 'a stock card is an unsold card: no activation, devices or status other than unused',
  // Against the file's earlier rows and the project.
  code_twice: (p: Params) => `the code is also on line ${p.line}`,
  code_exists: () => 'the project already has this code',
} satisfies Record<string, (params: Params) => string>;

export type ImportProblemReason = keyof typeof IMPORT_PROBLEM_TEXTS;
export const IMPORT_PROBLEM_REASONS = Object.keys(IMPORT_PROBLEM_TEXTS) as ImportProblemReason[];

/** One problem as the answer lists it. */
export interface ImportProblemFields {
  line: number;
  field: string | null;
  reason: ImportProblemReason;
  params: Params;
  message: string;
}

export function importProblem(
  line: number,
  field: string | null,
  reason: ImportProblemReason,
  params: Params = {},
): ImportProblemFields {
  return { line, field, reason, params, message: IMPORT_PROBLEM_TEXTS[reason](params) };
}
