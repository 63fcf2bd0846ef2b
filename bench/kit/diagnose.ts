// The kit's PostgreSQL diagnosis (driver.ts runs it after the plan):
//  1. The service (Fastify, KIT_DIAG_WORKERS workers) under the bound-device login while a separate
//     connection samples pg_stat_activity every KIT_DIAG_SAMPLE_MS (what the service's backends are
//     doing: idle waiting for the service, on CPU, or waiting on a lock / WAL / I/O event), with
//     WAL bytes (pg_current_wal_lsn), commits (pg_stat_database) and statements (pg_stat_statements,
//     switched to track = top for the run only) per login.
//  2. PostgreSQL alone with pgbench in its own database: select-only (-S) and the durable
//     simple-update (-N) at KIT_PGBENCH_CLIENTS, prepared protocol, KIT_PGBENCH_SECS each.
// Knobs: KIT_DIAG_WORKERS=8 KIT_DIAG_SECS=10 KIT_DIAG_SAMPLE_MS=100 KIT_PGBENCH=1
//   KIT_PGBENCH_SCALE=20 KIT_PGBENCH_CLIENTS=16,64,128 KIT_PGBENCH_SECS=8
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { connectPg } from '../context';
import type { Fixture } from '../types';
import type { Loadgens, Result, RunningService } from './driver';
import { snapshot, used } from './procs';

type Pg = Awaited<ReturnType<typeof connectPg>>;

export interface Diagnosis {
  login?: {
    workers: number;
    result: Result;
    samples: number;
    backends: number;
    /** Share of sampled client backends by what they were doing ("idle", "CPU", "Lock:transactionid", …). */
    activity: Record<string, number>;
    perLogin: { commits: number; walBytes: number; statements: number | null };
    top: { query: string; callsPerLogin: number; meanMs: number }[];
  };
  pgbench: { mode: 'select-only' | 'simple-update'; clients: number; tps: number; latencyMs: number; pgCores: number }[];
  errors: string[];
}

interface Kit {
  childEnv: Record<string, string>;
  fixture: Fixture;
  loadgens: Loadgens;
  pg: Pg;
  tag: string;
  report(d: Diagnosis, text: string): void;
  startService(adapter: 'fastify', workers: number, env: Record<string, string>): Promise<RunningService>;
  measure(
    service: RunningService,
    loadgens: Loadgens,
    name: 'bound',
    fixture: Fixture,
    tag: string,
    pg: Pg,
    seconds: number,
    hooks: { before(): Promise<void>; after(): Promise<void> },
  ): Promise<Result>;
  connectPg: typeof connectPg;
  log(message: string): void;
}

const E = process.env;
const n = (name: string, fallback: number): number => (E[name] ? Number(E[name]) : fallback);
const pct = (v: number): string => `${(v * 100).toFixed(1)} %`;
const f0 = (v: number): string => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '—');

export function text(d: Diagnosis): string {
  const lines = ['PostgreSQL diagnosis'];
  const l = d.login;
  if (l) {
    const r = l.result;
    lines.push(
      `  bound-device login, fastify WORKERS=${l.workers}: ${f0(r.rps)}/s, p99 ${r.p99.toFixed(1)} ms; PostgreSQL ${r.cores.postgres.toFixed(2)} cores, service ${r.cores.service.toFixed(2)} cores, machine ${r.cores.machine.toFixed(2)} of ${os.availableParallelism()}`,
      `  service backends (${l.backends.toFixed(0)} on average, ${l.samples} samples of pg_stat_activity): ` +
        Object.entries(l.activity)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8)
          .map(([k, v]) => `${k} ${pct(v)}`)
          .join(', '),
      `  per login: ${l.perLogin.commits.toFixed(3)} commits, ${f0(l.perLogin.walBytes)} WAL bytes, ` +
        (l.perLogin.statements === null
          ? 'statements unknown (no pg_stat_statements)'
          : `${l.perLogin.statements.toFixed(3)} statements (pg_stat_statements)`),
      ...l.top.map((t) => `    ${t.callsPerLogin.toFixed(3)}/login, ${t.meanMs.toFixed(3)} ms: ${t.query}`),
    );
  }
  if (d.pgbench.length) {
    for (const mode of ['select-only', 'simple-update'] as const) {
      const rows = d.pgbench.filter((p) => p.mode === mode);
      if (rows.length)
        lines.push(
          `  pgbench ${mode}${mode === 'simple-update' ? ' (durable)' : ''}: ` +
            rows
              .map(
                (p) =>
                  `${p.clients} clients ${f0(p.tps)} tps (${p.latencyMs.toFixed(2)} ms, PostgreSQL ${p.pgCores.toFixed(1)} cores)`,
              )
              .join('; '),
        );
    }
  }
  lines.push(...d.errors.map((e) => `  ERROR: ${e}`));
  return lines.join('\n');
}

function pgbench(args: string[], timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(E.KIT_PGBIN ?? '', 'pgbench'), args, {
      env: { ...E, PGHOST: '127.0.0.1', PGPORT: E.KIT_PG_PORT, PGUSER: 'postgres' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (e) => (out += e.message));
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

export async function diagnose(k: Kit): Promise<{ diagnosis: Diagnosis; text: string }> {
  const d: Diagnosis = { pgbench: [], errors: [] };
  const cores = os.availableParallelism();
  const pgRoot = { postgres: [Number(E.KIT_PG_PID)] };
  const port = E.KIT_PG_PORT;
  const admin = await k.connectPg(`postgres://postgres@127.0.0.1:${port}/postgres?application_name=kit-diagnose`);
  const progress = (): void => k.report(d, text(d));

  // ------------------------------------------------------------ 1. the bound-device login, sampled
  const workers = Math.min(n('KIT_DIAG_WORKERS', 8), cores);
  const seconds = n('KIT_DIAG_SECS', 10);
  const sampleMs = n('KIT_DIAG_SAMPLE_MS', 100);
  try {
    let pgss = true;
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements').catch(() => (pgss = false));
    const service = await k.startService('fastify', workers, k.childEnv);
    k.log(`diagnosis: fastify WORKERS=${workers}, bound-device login sampled every ${sampleMs} ms`);
    const counts = new Map<string, number>();
    let samples = 0;
    let backends = 0;
    let sampling = false;
    let sampler: Promise<void> = Promise.resolve();
    const mark: { lsn?: string; commits?: number } = {};
    const state = async (): Promise<{ lsn: string; commits: number }> => {
      await admin.query('SELECT pg_stat_clear_snapshot()');
      const { rows } = await admin.query<{ lsn: string; commits: string }>(
        "SELECT pg_current_wal_lsn()::text AS lsn, (SELECT xact_commit FROM pg_stat_database WHERE datname = 'cardkey')::text AS commits",
      );
      return { lsn: rows[0].lsn, commits: Number(rows[0].commits) };
    };
    let after: { lsn: string; commits: number } | null = null;
    let walBytes = 0;
    const result = await k.measure(service, k.loadgens, 'bound', k.fixture, `${k.tag}-diag`, k.pg, seconds, {
      async before() {
        if (pgss) {
          await admin.query("ALTER SYSTEM SET pg_stat_statements.track = 'top'");
          await admin.query('SELECT pg_reload_conf()');
          await sleep(300);
          await admin.query('SELECT pg_stat_statements_reset()');
        }
        Object.assign(mark, await state());
        sampling = true;
        sampler = (async () => {
          while (sampling) {
            const { rows } = await admin.query<{ what: string; n: number }>(
              `SELECT CASE WHEN state = 'active' THEN coalesce(wait_event_type || ':' || wait_event, 'CPU')
                           ELSE coalesce(state, '?') END AS what, count(*)::int AS n
                 FROM pg_stat_activity WHERE datname = 'cardkey' AND backend_type = 'client backend' GROUP BY 1`,
            );
            samples++;
            for (const r of rows) {
              counts.set(r.what, (counts.get(r.what) ?? 0) + r.n);
              backends += r.n;
            }
            await sleep(sampleMs);
          }
        })();
      },
      async after() {
        sampling = false;
        await sampler;
        const { rows } = await admin.query<{ b: string }>(
          `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '${mark.lsn}')::text AS b`,
        );
        walBytes = Number(rows[0].b);
        await sleep(1500); // backends publish their commit counts when idle, at most once a second
        after = await state();
      },
    });
    await service.stop();
    const logins = result.total;
    let statements: number | null = null;
    let top: NonNullable<Diagnosis['login']>['top'] = [];
    if (pgss) {
      const { rows } = await admin.query<{ query: string; calls: string; mean: number }>(
        `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query, calls::text, mean_exec_time AS mean
           FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'cardkey') ORDER BY pg_stat_statements.calls DESC`,
      );
      statements = rows.reduce((t, r) => t + Number(r.calls), 0) / logins;
      top = rows.slice(0, 8).map((r) => ({ query: r.query, callsPerLogin: Number(r.calls) / logins, meanMs: r.mean }));
      await admin.query("ALTER SYSTEM SET pg_stat_statements.track = 'none'");
      await admin.query('SELECT pg_reload_conf()');
    }
    const total = [...counts.values()].reduce((a, b) => a + b, 0) || 1;
    const end = after as { lsn: string; commits: number } | null;
    d.login = {
      workers,
      result,
      samples,
      backends: backends / Math.max(1, samples),
      activity: Object.fromEntries([...counts].map(([key, v]) => [key, v / total])),
      perLogin: { commits: end ? (end.commits - (mark.commits ?? 0)) / logins : NaN, walBytes: walBytes / logins, statements },
      top,
    };
  } catch (error) {
    d.errors.push(`sampled login run: ${error instanceof Error ? error.message : String(error)}`);
  }
  progress();
  k.log(text(d));

  // ------------------------------------------------------------ 2. pgbench
  if (E.KIT_PGBENCH !== '0') {
    const clients = (E.KIT_PGBENCH_CLIENTS || '16,64,128')
      .split(',')
      .map(Number)
      .filter((c) => c > 0);
    const secs = n('KIT_PGBENCH_SECS', 8);
    try {
      await admin.query('CREATE DATABASE pgbench');
      const init = await pgbench(['-i', '-q', '-s', String(n('KIT_PGBENCH_SCALE', 20)), 'pgbench'], 300_000);
      if (init.code !== 0) throw new Error(`pgbench -i: ${init.out.slice(-400)}`);
      for (const mode of ['select-only', 'simple-update'] as const) {
        for (const c of clients) {
          // PostgreSQL's CPU from 1 s after the start (its backends connected) to 0.5 s before the end
          // (they exit with pgbench, and an exited process's time can no longer be read).
          let s0 = snapshot(pgRoot);
          let s1 = s0;
          const t0 = setTimeout(() => (s0 = snapshot(pgRoot)), 1000);
          const t1 = setTimeout(() => (s1 = snapshot(pgRoot)), secs * 1000 - 500);
          const r = await pgbench(
            [
              '-n',
              '-M',
              'prepared',
              mode === 'select-only' ? '-S' : '-N',
              '-c',
              String(c),
              '-j',
              String(Math.min(c, cores)),
              '-T',
              String(secs),
              'pgbench',
            ],
            (secs + 60) * 1000,
          );
          clearTimeout(t0);
          clearTimeout(t1);
          const tps = Number(/tps = ([\d.]+)/.exec(r.out)?.[1]);
          if (r.code !== 0 || !Number.isFinite(tps)) throw new Error(`pgbench ${mode} -c ${c}: ${r.out.slice(-400)}`);
          d.pgbench.push({
            mode,
            clients: c,
            tps,
            latencyMs: Number(/latency average = ([\d.]+) ms/.exec(r.out)?.[1]),
            pgCores: s1.at > s0.at ? used(s0, s1, 'postgres') / (s1.at - s0.at) : NaN,
          });
          k.log(`pgbench ${mode} ${c} clients: ${f0(tps)} tps`);
          progress();
        }
      }
    } catch (error) {
      d.errors.push(error instanceof Error ? error.message : String(error));
    }
  }
  await admin.end().catch(() => undefined);
  progress();
  return { diagnosis: d, text: text(d) };
}
