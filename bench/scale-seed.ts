// The scale mode's growth: the bench's project from its 100,000 cards to a million cards and ten
// million login-log rows, by SQL in a few statements (generate_series), so that it takes minutes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Client as PgClient } from 'pg';
import { ensureMonthPartitions, monthStart } from '../src/login-logs/log-partitions';
import { fail, SCALE_SIZES } from './settings';
import type { Fixture } from './types';

/** What the reads of the grown project look for: a card, its device, a log row's request id. */
export interface ScaleProbes {
  cardId: number;
  code: string;
  device: string;
  requestId: string;
}

export interface Growth {
  cards: number;
  cardSeconds: number;
  devices: number;
  logRows: number;
  logSeconds: number;
  vacuumSeconds: number;
  settle: Settling;
  probes: ScaleProbes;
}

/** The write-out after the growth, before the grown project is measured. */
export interface Settling {
  /** The kernel's dirty page cache when the growth ended (MB; null where /proc cannot tell). */
  dirtyMb: number | null;
  /** Whether PostgreSQL let this role run CHECKPOINT (superuser or pg_checkpoint). */
  checkpointed: boolean;
  seconds: number;
}

/** Log rows per INSERT: progress lines, and no single transaction of ten million rows. */
const LOG_CHUNK = 1_000_000;
/** A multiplier prime to any card count here: log row g belongs to filler card (g · STRIDE) mod n. */
const STRIDE = 7919n;

/** Filler card n's code: the same expression in SQL (cards) and here (probes). */
const fillerCode = (tag: string, n: number | bigint): string =>
  'F' + createHash('md5').update(`${tag}${n}`).digest('hex').slice(0, 20).toUpperCase();
const FILLER_CODE_SQL = (tag: string, n: string) => `'F' || upper(substr(md5('${tag}' || ${n}), 1, 20))`;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = Date.now();
  const result = await work();
  return [result, (Date.now() - started) / 1000];
}

/**
 * Adds filler cards up to SCALE_SIZES.cards (a mix of unused, active with one bound device and an
 * expiry a year around today, and banned, created over the last year) and SCALE_SIZES.logRows log
 * rows of those cards over the last 365 days in id order (mostly successes, 8 % refusals, the four
 * families), then VACUUM ANALYZE as an aged table would be.
 */
export async function growToScale(pg: PgClient, fixture: Fixture, tag: string, log: (line: string) => void): Promise<Growth> {
  const { rows: counted } = await pg.query<{ n: string; last: string }>(
    'SELECT count(*) AS n, coalesce(max(id), 0) AS last FROM cards WHERE project_id = $1',
    [fixture.projectId],
  );
  const fillers = SCALE_SIZES.cards - Number(counted[0].n);
  if (fillers <= 0) fail(`the project already has ${counted[0].n} cards`);
  const [, cardSeconds] = await timed(() =>
    pg.query(
      `INSERT INTO cards (project_id, code, duration_seconds, device_limit, status, activated_at, expires_at, use_count, last_login_at, created_at)
       SELECT $1::uuid, ${FILLER_CODE_SQL(tag, 'g')}, 2592000, 1, s.status,
              CASE WHEN s.status = 'active' THEN s.born + interval '1 day' END,
              CASE WHEN s.status = 'active' THEN s.born + interval '181 days' END,
              CASE WHEN s.status = 'active' THEN g % 50 ELSE 0 END,
              CASE WHEN s.status = 'active' THEN s.born + interval '2 days' END,
              s.born
       FROM generate_series(0::bigint, $2::bigint - 1) g
       CROSS JOIN LATERAL (SELECT CASE WHEN g % 20 = 0 THEN 'banned' WHEN g % 20 < 8 THEN 'unused' ELSE 'active' END AS status,
                                  now() - interval '365 days' + g * (interval '365 days' / $2) AS born) s`,
      [fixture.projectId, fillers],
    ),
  );
  const { rows: range } = await pg.query<{ first: string; last: string; n: string }>(
    'SELECT min(id) AS first, max(id) AS last, count(*) AS n FROM cards WHERE project_id = $1 AND id > $2',
    [fixture.projectId, counted[0].last],
  );
  const first = BigInt(range[0].first);
  // The log rows name their card by id arithmetic: the filler's ids must be one run.
  if (BigInt(range[0].last) - first + 1n !== BigInt(fillers) || Number(range[0].n) !== fillers)
    fail(`the ${fillers} filler cards did not get consecutive ids (${range[0].first}…${range[0].last}, ${range[0].n} rows)`);
  log(`[scale] ${fillers.toLocaleString('en-US')} filler cards in ${cardSeconds.toFixed(1)} s`);

  const [devices] = await timed(
    async () =>
      (
        await pg.query(
          `INSERT INTO card_devices (card_id, machine_code, bound_at)
         SELECT id, 'dev-' || id, activated_at FROM cards WHERE project_id = $1 AND id >= $2 AND status = 'active'`,
          [fixture.projectId, first.toString()],
        )
      ).rowCount ?? 0,
  );

  // The year of rows goes into its months' partitions, as on a service that ran that year.
  const now = new Date();
  await pg.query('BEGIN');
  await ensureMonthPartitions(async (text, params) => (await pg.query(text, params)).rows, now, monthStart(now, -12));
  await pg.query('COMMIT');
  const total = BigInt(SCALE_SIZES.logRows);
  const logStarted = Date.now();
  for (let from = 0n; from < total; from += BigInt(LOG_CHUNK)) {
    const to = from + BigInt(LOG_CHUNK) < total ? from + BigInt(LOG_CHUNK) : total;
    await pg.query(
      `INSERT INTO login_logs (project_id, card_id, card_code, machine_code, ip, family, interface, result_code, request_id, created_at)
       SELECT $1::uuid, $2::bigint + n, ${FILLER_CODE_SQL(tag, 'n')}, 'dev-' || ($2::bigint + n),
              '10.' || (g % 250) || '.' || (g / 250 % 250) || '.' || (g % 7 + 1),
              CASE WHEN g % 20 < 10 THEN 'connect' WHEN g % 20 < 16 THEN 'v3' WHEN g % 20 < 19 THEN 'sdk' ELSE 'legacy' END,
              'card_login',
              CASE g % 50 WHEN 0 THEN 20002 WHEN 1 THEN 20004 WHEN 2 THEN 20001 WHEN 3 THEN 20003 ELSE 0 END,
              md5('${tag}-log-' || g),
              now() - interval '365 days' + g * (interval '365 days' / $5)
       FROM generate_series($3::bigint, $4::bigint - 1) g
       CROSS JOIN LATERAL (SELECT g * ${STRIDE} % $6::bigint AS n) c`,
      [fixture.projectId, first.toString(), from.toString(), to.toString(), total.toString(), fillers],
    );
    log(
      `[scale] log rows ${Number(to).toLocaleString('en-US')} / ${Number(total).toLocaleString('en-US')} (${((Date.now() - logStarted) / 1000).toFixed(0)} s)`,
    );
  }
  const logSeconds = (Date.now() - logStarted) / 1000;
  const [, vacuumSeconds] = await timed(() => pg.query('VACUUM ANALYZE cards, card_devices, login_logs'));
  log(`[scale] VACUUM ANALYZE in ${vacuumSeconds.toFixed(1)} s`);
  const settle = await settleWrites(pg, log);

  // A log row in the middle of the year, and an active filler card (status by g % 20 ≥ 8).
  const g = total / 2n;
  const n = 20 * Math.floor(fillers / 40) + 9;
  return {
    cards: fillers,
    cardSeconds,
    devices,
    logRows: SCALE_SIZES.logRows,
    logSeconds,
    vacuumSeconds,
    settle,
    probes: {
      cardId: Number(first) + n,
      code: fillerCode(tag, n),
      device: `dev-${Number(first) + n}`,
      requestId: createHash('md5').update(`${tag}-log-${g}`).digest('hex'),
    },
  };
}

function dirtyMb(): number | null {
  try {
    const kb = /^Dirty:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

/**
 * Writes out what seeding left in memory before a phase is measured: after the growth, hundreds of
 * MB of the kernel's dirty pages and PostgreSQL's dirty buffers. Measured at once, the logins'
 * commits would wait for their WAL flush behind that write-back, and the run would measure the
 * seeding, not a database of this size. CHECKPOINT needs superuser or pg_checkpoint (.ci/services.sh
 * grants it to `app`); without it PostgreSQL writes its buffers out on its own schedule, and the
 * report says so.
 */
export async function settleWrites(pg: PgClient, log: (line: string) => void): Promise<Settling> {
  const dirty = dirtyMb();
  const [checkpointed, seconds] = await timed(async () => {
    const done = await pg.query('CHECKPOINT').then(
      () => true,
      (error: Error) => (
        log(`[scale] CHECKPOINT refused (${error.message}): PostgreSQL writes its buffers out during the runs`),
        false
      ),
    );
    execFileSync('sync');
    return done;
  });
  log(
    `[scale] write-out: ${dirty === null ? '?' : dirty.toFixed(0)} MB of dirty pages, CHECKPOINT ${checkpointed ? 'done' : 'refused'}, in ${seconds.toFixed(1)} s`,
  );
  return { dirtyMb: dirty, checkpointed, seconds };
}
