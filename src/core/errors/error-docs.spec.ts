import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClientErrorCode } from '../../../sdk/src';
import { ERROR_CATALOG, ErrorCode } from './error-code';

/**
 * docs/errors.md must document the catalog exactly: one table row per code, in the form
 * `| code | NAME | HTTP | meaning | what a client should do |`, with the enum name and the HTTP
 * status of ERROR_CATALOG, and no row for a code the catalog does not have. The codes the official
 * SDK produces itself (90xxx, never sent by the server) live in their own section and are checked
 * separately.
 */
const DOC_PATH = join(__dirname, '..', '..', '..', 'docs', 'errors.md');
const CLIENT_SECTION_HEADING = /^##\s+Codes the official SDK produces itself\s*$/m;
const ROW = /^\|\s*(\d+)\s*\|\s*([A-Za-z0-9_]+)\s*\|\s*([^|]*?)\s*\|(.*)$/;

interface DocRow {
  line: number;
  code: number;
  name: string;
  http: string;
  rest: string;
}

function rowsOf(text: string, firstLine: number): DocRow[] {
  const rows: DocRow[] = [];
  text.split('\n').forEach((raw, i) => {
    const m = ROW.exec(raw.trim());
    if (m) rows.push({ line: firstLine + i, code: Number(m[1]), name: m[2], http: m[3], rest: m[4] });
  });
  return rows;
}

const doc = readFileSync(DOC_PATH, 'utf8');
const split = CLIENT_SECTION_HEADING.exec(doc);
const serverText = split ? doc.slice(0, split.index) : doc;
const clientText = split ? doc.slice(split.index) : '';
const serverRows = rowsOf(serverText, 1);
const clientRows = rowsOf(clientText, serverText.split('\n').length);

const CATALOG_CODES = Object.values(ErrorCode).filter((v): v is ErrorCode => typeof v === 'number');
const where = (rows: DocRow[]) => rows.map((r) => `line ${r.line}`).join(', ');

describe('docs/errors.md', () => {
  it('has the section of client-side SDK codes', () => {
    if (!split) throw new Error('docs/errors.md has no heading "## Codes the official SDK produces itself"');
  });

  it.each(CATALOG_CODES.map((code) => [code, ErrorCode[code]] as const))(
    'documents %i %s in exactly one row, with its name and HTTP status',
    (code, name) => {
      const rows = serverRows.filter((r) => r.code === code);
      if (rows.length === 0) throw new Error(`code ${code} (${name}) has no row in docs/errors.md`);
      if (rows.length > 1)
        throw new Error(
          `code ${code} (${name}) has ${rows.length} rows in docs/errors.md (${where(rows)}); expected exactly one`,
        );
      const [row] = rows;
      if (row.name !== name)
        throw new Error(`code ${code} is documented as ${row.name} (line ${row.line}); the catalog calls it ${name}`);
      const http = String(ERROR_CATALOG[code].http);
      if (row.http !== http)
        throw new Error(
          `code ${code} (${name}) is documented with HTTP ${row.http} (line ${row.line}); the catalog answers HTTP ${http}`,
        );
      const [meaning = '', advice = ''] = row.rest.split('|').map((cell) => cell.trim());
      if (!meaning) throw new Error(`code ${code} (${name}) has an empty "meaning" cell (line ${row.line})`);
      if (!advice) throw new Error(`code ${code} (${name}) has an empty "what a client should do" cell (line ${row.line})`);
    },
  );

  it('has no row for a code the catalog does not have', () => {
    const unknown = serverRows.filter((r) => !(r.code in ERROR_CATALOG));
    if (unknown.length > 0) {
      throw new Error(
        `docs/errors.md documents codes the catalog does not have: ${unknown.map((r) => `${r.code} ${r.name} (line ${r.line})`).join('; ')}`,
      );
    }
  });

  it('documents every client-side code of the official client, out of the catalog range and out of the catalog', () => {
    expect(clientRows.map((r) => `${r.code} ${r.name}`)).toEqual(
      Object.entries(ClientErrorCode).map(([name, code]) => `${code} ${name}`),
    );
    for (const row of clientRows) {
      if (row.code in ERROR_CATALOG)
        throw new Error(`client-side code ${row.code} ${row.name} (line ${row.line}) collides with a catalog code`);
      if (row.code < 90000 || row.code > 90999)
        throw new Error(`client-side code ${row.code} ${row.name} (line ${row.line}) is outside 90000-90999`);
    }
  });
});
