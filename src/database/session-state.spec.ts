import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Behind PgBouncer in transaction mode (decisions §25) a connection is a client's for one
 * transaction only: state left on a session (a session advisory lock, LISTEN, a session SET or
 * set_config(…, false)) stays on a server connection the pooler hands to someone else. None in src/.
 */
const SESSION_STATE: Array<[RegExp, string]> = [
  [/pg_(try_)?advisory_lock(_shared)?\s*\(/, 'a session advisory lock (use pg_advisory_xact_lock in a transaction)'],
  [/pg_advisory_unlock/, 'a session advisory unlock'],
  [/\bLISTEN\s+\w/, 'LISTEN'],
  // Case-sensitive: SQL here is written in capitals, and prose ("set HOST=…") must not match.
  [/['"`]\s*SET\s+(?!LOCAL\b|CONSTRAINTS\b|TRANSACTION\b)(SESSION\s+)?[a-z_.]+\s*(=|TO\b)/, 'a session SET (use SET LOCAL)'],
  [/set_config\s*\([^)]*,\s*false\s*\)/i, 'set_config(…, false), a session setting'],
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('no session state in src/ (PgBouncer transaction mode)', () => {
  it('finds no session advisory lock, LISTEN, session SET or session set_config', () => {
    const found = sources(join(__dirname, '..')).flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          SESSION_STATE.filter(([pattern]) => pattern.test(line)).map(([, what]) => `${path}:${i + 1}: ${what}`),
        ),
    );
    expect(found).toEqual([]);
  });

  it('knows each form it forbids', () => {
    const caught = (line: string) => SESSION_STATE.some(([pattern]) => pattern.test(line));
    expect(caught("await runner.query('SELECT pg_advisory_lock($1)', [id])")).toBe(true);
    expect(caught("query('LISTEN card_events')")).toBe(true);
    expect(caught("query('SET statement_timeout = 5000')")).toBe(true);
    expect(caught("query(`SELECT set_config('app.x', $1, false)`)")).toBe(true);
    expect(caught("query('SET LOCAL statement_timeout = 5000')")).toBe(false);
    expect(caught("query('SELECT pg_advisory_xact_lock($1)', [id])")).toBe(false);
    expect(caught("query('SELECT pg_try_advisory_xact_lock($1) AS locked', [id])")).toBe(false);
    expect(caught("`UPDATE cards SET status = 'banned'`")).toBe(false);
  });
});
