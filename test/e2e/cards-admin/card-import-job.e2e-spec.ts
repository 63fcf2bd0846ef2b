import { request as httpRequest } from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { CardImportsService } from '../../../src/cards/admin/card-imports.service';
import { IMPORTS_PER_AUTHOR, IMPORTS_PER_PROCESS } from '../../../src/cards/admin/import-slots';
import { AdminClient } from '../../support/admin-client';
import { expectAdminError } from '../../support/admin-errors';
import { CODES, expectStandardFailure, sdkLogin } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';

const { CARD_IMPORT_INVALID, RATE_LIMITED } = CODES;
const MIB = 1024 * 1024;
/**
 * What an import may add to the p99 of another project's logins over the same logins measured just
 * before. The target is a p99 under 100 ms; on a 2-core CI host whose other Jest worker runs
 * meanwhile, the p99 of a couple of hundred logins swings by hundreds of milliseconds with what that
 * worker does (measured: a 19 MiB cell 20-90 ms p99 on most runs, 455 ms on one, against a quiet
 * 20-50 ms; a 20,000-row import 348 ms and an export 651 ms against 42 ms, on the embedded database,
 * which shares the service's thread). The code these tests guard against stalled those logins for
 * 4.5-13.5 s, which a one-second bound still catches without failing on a busy host's noise. The
 * figures are printed on every run.
 */
const WORK_ADDS_MS = 1000;
/**
 * How soon a 19 MiB cell is refused, upload included. The refusal itself takes tens of milliseconds;
 * sending 19 MiB from the test's own busy worker took up to 1.1 s on a loaded 2-core host. The
 * stall this guards against was 4.5 s at least.
 */
const REFUSED_WITHIN_MS = 3000;
let quietP99 = 0;

type Project = Awaited<ReturnType<AdminClient['createProject']>>;

/**
 * The red team's finding 2 and part of 9: an import never stalls another tenant, a huge cell is refused
 * at once, imports at once are bounded, an import is one job that no crash leaves half done, and
 * bound devices obey the card's limit.
 */
describe('card import as a job: no stall, caps, pending batches, sweep (e2e)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let a: AdminClient;
  let b: AdminClient;
  let other: Project;
  let otherCard: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await AdminClient.asPlatformAdmin(t);
    a = (await admin.createAuthor()).client;
    b = (await admin.createAuthor()).client;
    // Another author's project, whose logins must not wait for anyone's import.
    const c = (await admin.createAuthor()).client;
    other = await c.createProject();
    otherCard = (await c.post(cardsOf(other), { count: 1, duration_seconds: 86_400 }).expect(201)).body.items[0].code;
    for (let i = 0; i < 5; i++) await otherLogin();
  });
  beforeEach(async () => {
    const quiet = await loginsDuring(Promise.resolve());
    quietP99 = quiet.p99;
    process.stdout.write(
      `import-job: other project's logins with no import: p99 ${quiet.p99.toFixed(1)} ms, max ${quiet.max.toFixed(1)} ms\n`,
    );
  });
  afterAll(() => t.close());

  const cardsOf = (p: { id: string }) => `/admin/v1/projects/${p.id}/cards`;
  const importCsv = (p: { id: string }, csv: string | Buffer, query = '', client: AdminClient = a) =>
    t
      .http()
      .post(`${cardsOf(p)}/import${query}`)
      .set(client.auth())
      .set('Content-Type', 'text/csv')
      .send(csv);
  const db = () => t.app.get(DataSource);
  const staged = async (p: { id: string }) =>
    (await db().query('SELECT count(*)::int AS n FROM card_import_rows WHERE project_id = $1', [p.id]))[0].n as number;
  const cardCount = async (p: { id: string }) =>
    (await db().query('SELECT count(*)::int AS n FROM cards WHERE project_id = $1', [p.id]))[0].n as number;

  async function otherLogin(): Promise<number> {
    const started = performance.now();
    const res = await t
      .http()
      .post('/api/kmlogon')
      .type('form')
      .send({ app: other.program_id, kami: otherCard, imei: 'other-dev' });
    expect([res.status, res.body.code]).toEqual([200, 1]);
    return performance.now() - started;
  }

  /**
   * Another project's logins, one after another, for as long as `work` runs and at least a second
   * (enough answers for a p99); with the event loop's longest stall meanwhile.
   */
  async function loginsDuring<T>(
    work: Promise<T>,
  ): Promise<{ result: T; p99: number; max: number; logins: number; loopMaxMs: number }> {
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    let done = false;
    const finished = work.finally(() => (done = true));
    const times: number[] = [];
    for (const started = performance.now(); !done || performance.now() - started < 1000;) times.push(await otherLogin());
    const result = await finished;
    loop.disable();
    times.sort((x, y) => x - y);
    return {
      result,
      p99: times[Math.floor(times.length * 0.99)] ?? 0,
      max: times[times.length - 1] ?? 0,
      logins: times.length,
      loopMaxMs: loop.max / 1e6,
    };
  }

  /** An import whose body is sent piece by piece, held open until `end`. */
  async function openImport(p: { id: string }, client: AdminClient, query = '') {
    const url = new URL(`${cardsOf(p)}/import${query}`, await t.baseUrl());
    const req = httpRequest(url, {
      method: 'POST',
      headers: { ...client.auth(), 'Content-Type': 'text/csv', 'Transfer-Encoding': 'chunked' },
    });
    const answer = new Promise<{ status: number; body: { rows?: number; imported?: number; batch_id?: string } }>(
      (resolve, reject) => {
        req.on('response', (res) => {
          let text = '';
          res
            .setEncoding('utf8')
            .on('data', (d: string) => (text += d))
            .on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on('error', reject);
      },
    );
    return { write: (text: string) => req.write(text), end: () => (req.end(), answer), answer };
  }
  const rows = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(6, '0')},3600`).join('\n') + '\n';
  async function until(check: () => Promise<boolean>, what: string): Promise<void> {
    for (const started = Date.now(); !(await check());) {
      if (Date.now() - started > 15_000) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('refuses a 19 MiB cell at once, upload included, naming its line and column, while another project logs in as fast as ever', async () => {
    const p = await a.createProject();
    // Bytes made once, so that the test's own client does not stall the loop preparing them.
    const csv = Buffer.from('code,duration_seconds,note\nOK-1,60,fine\nBIG-1,60,"' + 'x'.repeat(19 * MIB) + '"\n');
    const heapBefore = process.memoryUsage().heapUsed;
    for (const query of ['?dry_run=true', '']) {
      const started = performance.now();
      let ms = 0;
      const {
        result: res,
        p99,
        max,
        logins,
        loopMaxMs,
      } = await loginsDuring(importCsv(p, csv, query).then((r) => ((ms = performance.now() - started), r)));
      expectAdminError(res, 400, CARD_IMPORT_INVALID);
      expect(res.body.error.details).toEqual({
        rows: 1,
        valid: 0,
        problems: [
          {
            line: 3,
            field: 'note',
            reason: 'cell_too_long',
            params: { max: 4096 },
            message: 'the cell is longer than 4096 characters',
          },
        ],
        problem_count: 1,
      });
      expect(res.body.error.message).toMatch(/^line 3, note: /);
      process.stdout.write(
        `import-job: 19 MiB cell${query} refused in ${ms.toFixed(0)} ms; other project's logins: ${logins}, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms; loop stalled at most ${loopMaxMs.toFixed(0)} ms\n`,
      );
      expect(ms).toBeLessThan(REFUSED_WITHIN_MS);
      expect(p99).toBeLessThan(quietP99 + WORK_ADDS_MS);
    }
    const grownMb = (process.memoryUsage().heapUsed - heapBefore) / MIB;
    // Printed, not asserted: without a forced GC the heap's size says little.
    process.stdout.write(
      `import-job: heap grew ${grownMb.toFixed(0)} MB over two 19 MiB imports (the test holds the 19 MiB text itself)\n`,
    );
    expect(await cardCount(p)).toBe(0);
    expect(await staged(p)).toBe(0);

    // A row of many short cells is capped as a whole too.
    const wide =
      'code,duration_seconds,note\nW-1,60,' +
      'y'.repeat(4000) +
      '\n' +
      'W-2,60,"' +
      'z'.repeat(4000) +
      '",' +
      'q,'.repeat(7000) +
      '\n';
    const res = await importCsv(p, wide, '?dry_run=true');
    expectAdminError(res, 400, CARD_IMPORT_INVALID);
    expect(res.body.error.details.problems).toEqual([
      expect.objectContaining({ line: 3, field: null, reason: 'row_too_long', params: { max: 16_384 } }),
    ]);
  }, 60_000);

  it('imports and exports a large file while another project logs in without a stall', async () => {
    const p = await a.createProject();
    const n = 20_000;
    const csv =
      'code,duration_seconds,note\n' +
      Array.from({ length: n }, (_, i) => `BULK-${String(i).padStart(6, '0')},86400,batch of ${n}`).join('\n');
    const started = performance.now();
    let ms = 0;
    const {
      result: res,
      p99,
      max,
      logins,
      loopMaxMs,
    } = await loginsDuring(importCsv(p, csv).then((r) => ((ms = performance.now() - started), r)));
    expect([res.status, res.body]).toEqual([201, { dry_run: false, batch_id: expect.any(String), rows: n, imported: n }]);
    process.stdout.write(
      `import-job: ${n} rows imported in ${ms.toFixed(0)} ms; other project's logins: ${logins}, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms; loop stalled at most ${loopMaxMs.toFixed(0)} ms\n`,
    );
    expect(p99).toBeLessThan(quietP99 + WORK_ADDS_MS);
    expect(logins).toBeGreaterThan(20);
    expect(await cardCount(p)).toBe(n);
    expect(await staged(p)).toBe(0);
    expect(await db().query('SELECT status, count, heartbeat_at FROM card_batches WHERE id = $1', [res.body.batch_id])).toEqual([
      { status: 'live', count: n, heartbeat_at: null },
    ]);

    // The export streams every card back, and the other project's logins go on meanwhile.
    const exported = await loginsDuring(
      a
        .get(`${cardsOf(p)}/export.csv`)
        .buffer(true)
        .then((r) => r),
    );
    expect(exported.result.status).toBe(200);
    expect(exported.result.headers['content-type']).toMatch(/^text\/csv/);
    expect(exported.result.text.trim().split('\r\n')).toHaveLength(n + 1);
    process.stdout.write(
      `import-job: export of ${n} cards; other project's logins p99 ${exported.p99.toFixed(1)} ms, max ${exported.max.toFixed(1)} ms\n`,
    );
    expect(exported.p99).toBeLessThan(quietP99 + WORK_ADDS_MS);
  }, 120_000);

  it('generates a 10,000-card batch while another project logs in without a stall, and answers every card', async () => {
    const p = await a.createProject();
    const n = 10_000;
    const started = performance.now();
    let ms = 0;
    const made = await loginsDuring(
      a
        .post(cardsOf(p), { count: n, duration_seconds: 86_400, note: 'big batch' })
        .then((r) => ((ms = performance.now() - started), r)),
    );
    process.stdout.write(
      `generation: ${n} cards in ${ms.toFixed(0)} ms; other project's logins: ${made.logins}, p99 ${made.p99.toFixed(1)} ms, max ${made.max.toFixed(1)} ms; loop stalled at most ${made.loopMaxMs.toFixed(0)} ms\n`,
    );
    expect(made.result.status).toBe(201);
    expect(made.result.body.items).toHaveLength(n);
    expect(new Set(made.result.body.items.map((c: { code: string }) => c.code)).size).toBe(n);
    expect(made.p99).toBeLessThan(quietP99 + WORK_ADDS_MS);
    expect(await cardCount(p)).toBe(n);
    expect(await db().query('SELECT status, count FROM card_batches WHERE id = $1', [made.result.body.batch_id])).toEqual([
      { status: 'live', count: n },
    ]);
  }, 120_000);

  it('keeps the cards of an import out of sight until every row is in: no login, no list, no export', async () => {
    const p = await a.createProject();
    const job = await openImport(p, a);
    job.write('code,duration_seconds\n' + rows('PEND', 600));
    await until(async () => (await staged(p)) >= 500, 'rows staged');
    const [batch] = await db().query('SELECT id, status FROM card_batches WHERE project_id = $1', [p.id]);
    expect(batch.status).toBe('pending');
    expectStandardFailure(
      await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: 'PEND-000001', machine_id: 'm-1' }),
      200,
      CODES.CARD_INVALID,
    );
    expect((await a.get(`${cardsOf(p)}?batch_id=${batch.id}`).expect(200)).body.total).toBe(0);
    expect((await a.get(`${cardsOf(p)}/export.csv`).expect(200)).text.trim().split('\r\n')).toHaveLength(1);
    // A code staged by a running import is taken for another import into the same project.
    const twin = await importCsv(p, 'code,duration_seconds\nPEND-000001,60\n');
    expectAdminError(twin, 400, CARD_IMPORT_INVALID);
    expect(twin.body.error.details.problems).toEqual([
      expect.objectContaining({ line: 2, field: 'code', reason: 'code_exists' }),
    ]);

    job.write(rows('MORE', 10));
    const done = await job.end();
    expect([done.status, done.body]).toMatchObject([201, { rows: 610, imported: 610, batch_id: batch.id }]);
    expect(
      (await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: 'PEND-000001', machine_id: 'm-1' }).expect(200)).body.code,
    ).toBe(0);
    expect(await staged(p)).toBe(0);
  }, 60_000);

  it('sweeps what a process killed mid-import left: a pending batch is deleted, a publishing one finished', async () => {
    const p = await a.createProject();
    const q = await a.createProject();
    const fresh = await a.createProject();
    const stage = async (project: Project, status: string, heartbeat: string, codes: string[]) => {
      const [{ id }] = await db().query(
        `INSERT INTO card_batches (project_id, count, status, heartbeat_at) VALUES ($1, $2, $3, now() - $4::interval) RETURNING id`,
        [project.id, codes.length, status, heartbeat],
      );
      await db().query(
        `INSERT INTO card_import_rows (batch_id, project_id, line, code, kind, duration_seconds, device_limit, status, use_count, unbind_count, devices, activated_at)
         SELECT $1, $2, n + 1, c, 'time', 3600, 2, CASE WHEN n = 1 THEN 'active' ELSE 'unused' END, 0, 0,
                CASE WHEN n = 1 THEN ARRAY['dev-a', 'dev-b']::varchar[] ELSE '{}' END, CASE WHEN n = 1 THEN now() END
         FROM unnest($3::varchar[]) WITH ORDINALITY AS s(c, n)`,
        [id, project.id, codes],
      );
      return id as string;
    };
    // As kill -9 leaves them: one import still reading its file, one moving its rows, one alive elsewhere.
    const dead = await stage(
      p,
      'pending',
      '1 hour',
      Array.from({ length: 1200 }, (_, i) => `DEAD-${i}`),
    );
    const half = await stage(
      q,
      'publishing',
      '1 hour',
      Array.from({ length: 700 }, (_, i) => `HALF-${i}`),
    );
    await db().query(
      `INSERT INTO cards (project_id, batch_id, code, duration_seconds, device_limit) VALUES ($1, $2, 'HALF-moved', 3600, 2)`,
      [q.id, half],
    );
    const alive = await stage(fresh, 'pending', '5 seconds', ['ALIVE-1']);
    expectStandardFailure(
      await sdkLogin(t, p.api_secret, { app: p.program_id, card_key: 'DEAD-1', machine_id: 'm-1' }),
      200,
      CODES.CARD_INVALID,
    );

    await t.app.get(CardImportsService).onApplicationBootstrap(); // what a start runs

    expect(await db().query('SELECT id FROM card_batches WHERE id = $1', [dead])).toEqual([]);
    expect([await staged(p), await cardCount(p)]).toEqual([0, 0]);
    expect(await db().query('SELECT status, count FROM card_batches WHERE id = $1', [half])).toEqual([
      { status: 'live', count: 700 },
    ]);
    expect([await staged(q), await cardCount(q)]).toEqual([0, 701]);
    const [first] = await db().query(
      `SELECT c.status, c.bound_devices, array_agg(d.machine_code ORDER BY d.bound_at) AS devices
      FROM cards c JOIN card_devices d ON d.card_id = c.id WHERE c.project_id = $1 AND c.code = 'HALF-0' GROUP BY c.id`,
      [q.id],
    );
    expect(first).toEqual({ status: 'active', bound_devices: 2, devices: ['dev-a', 'dev-b'] });
    // A batch whose owner still beats is left alone.
    expect(await db().query('SELECT status FROM card_batches WHERE id = $1', [alive])).toEqual([{ status: 'pending' }]);
    expect(t.logs.some((l) => l.includes('card import abandoned by a stopped process'))).toBe(true);
  }, 60_000);

  it('refuses a row binding more devices than its device limit (its own, or the project default)', async () => {
    const p = await a.createProject({ device_limit: 2 });
    const csv = [
      'code,duration_seconds,device_limit,status,activated_at,devices',
      'D-1,0,1,active,2025-01-01T00:00:00Z,"pc-1\npc-2"',
      'D-2,0,,active,2025-01-01T00:00:00Z,"pc-1\npc-2\npc-3"',
      'D-3,0,3,active,2025-01-01T00:00:00Z,"pc-1\npc-2\npc-3"',
      'D-4,0,,active,2025-01-01T00:00:00Z,"pc-1\npc-2"',
    ].join('\n');
    const res = await importCsv(p, csv, '?dry_run=true').expect(200);
    expect(res.body).toMatchObject({ rows: 4, valid: 2, problem_count: 2 });
    expect(res.body.problems).toEqual([
      {
        line: 2,
        field: 'devices',
        reason: 'devices_over_limit',
        params: { max: 1 },
        message: "lists more devices than the card's device limit (1)",
      },
      {
        line: 4,
        field: 'devices',
        reason: 'devices_over_limit',
        params: { max: 2 },
        message: "lists more devices than the card's device limit (2)",
      },
    ]);
    expectAdminError(await importCsv(p, csv), 400, CARD_IMPORT_INVALID);
    expect(await cardCount(p)).toBe(0);
  });

  it(`runs at most ${IMPORTS_PER_AUTHOR} imports of one account and ${IMPORTS_PER_PROCESS} of the service at once; beyond, 429`, async () => {
    const projects = await Promise.all(Array.from({ length: 5 }, () => a.createProject()));
    const ofB = await Promise.all(Array.from({ length: 2 }, () => b.createProject()));
    const open = async (p: Project, client: AdminClient, prefix: string) => {
      const job = await openImport(p, client);
      job.write('code,duration_seconds\n' + rows(prefix, 300));
      await until(async () => (await staged(p)) > 0, 'an import running');
      return job;
    };
    const mine = [await open(projects[0], a, 'A0'), await open(projects[1], a, 'A1')];
    const third = await importCsv(projects[2], 'code,duration_seconds\nX,60\n', '?dry_run=true');
    expectAdminError(third, 429, RATE_LIMITED);
    expect(third.body.error.details).toEqual({ scope: 'author', running: 2, max: 2 });
    expect(third.body.error.message).toMatch(/already have 2 card imports running/);
    // Another author still gets in, up to the service's bound.
    const theirs = [await open(ofB[0], b, 'B0'), await open(ofB[1], b, 'B1')];
    const c = (await admin.createAuthor()).client;
    const fifth = await importCsv(await c.createProject(), 'code,duration_seconds\nX,60\n', '?dry_run=true', c);
    expectAdminError(fifth, 429, RATE_LIMITED);
    expect(fifth.body.error.details).toEqual({ scope: 'service', running: 4, max: 4 });

    for (const job of [...mine, ...theirs]) expect((await job.end()).status).toBe(201);
    // The slots are given back when the imports end.
    expect((await importCsv(projects[2], 'code,duration_seconds\nX,60\n', '?dry_run=true')).status).toBe(200);
  }, 60_000);
});
