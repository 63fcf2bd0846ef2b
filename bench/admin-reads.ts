// The author's reads of the grown project (scale mode), timed one after another on an idle service:
// what the console asks for when it opens the cards, the log and the statistics.
import { performance } from 'node:perf_hooks';
import { api, prop } from './http';
import type { ScaleProbes } from './scale-seed';
import type { Service } from './service-process';
import { fail, SCALE_SIZES } from './settings';
import type { Fixture } from './types';

export interface ReadResult {
  title: string;
  route: string;
  p50: number;
  max: number;
  /** The list's `total`, or the statistics' summed count. */
  matched: number;
}

/** The bound for each read at a million cards and ten million log rows. */
export const READ_TARGET_MS = 100;

const UNTIMED = 3;

function day(offset: number): string {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + offset);
  return date.toISOString().slice(0, 10);
}

function matchedOf(body: unknown): number {
  const total = prop(body, 'total');
  if (typeof total === 'number') return total;
  const items = prop(body, 'items');
  if (Array.isArray(items)) return items.reduce((n: number, item) => n + Number(prop(item, 'count') ?? 0), 0);
  return Number.NaN;
}

export async function timeAdminReads(service: Service, fixture: Fixture, probes: ScaleProbes): Promise<ReadResult[]> {
  const project = `/admin/v1/projects/${fixture.projectId}`;
  const reads: Array<[string, string]> = [
    ['card list, newest first', `${project}/cards`],
    ['card list filtered: banned', `${project}/cards?status=banned`],
    ['card list filtered: active, expiring first', `${project}/cards?status=active&sort=expires_at`],
    ['card search by part of a code', `${project}/cards?q=${probes.code.slice(4, 14)}`],
    ['card search by code prefix', `${project}/cards?code_prefix=${probes.code}`],
    ['card search by device', `${project}/cards?machine=${probes.device}`],
    ['card page', `${project}/cards/${probes.cardId}`],
    ['login log, newest first', `${project}/logs`],
    ['login log by request id', `${project}/logs?request_id=${probes.requestId}`],
    ['login log by device', `${project}/logs?machine_code=${probes.device}`],
    ['login log of a card', `${project}/logs?card_id=${probes.cardId}`],
    ['login log, refusals only', `${project}/logs?result_code=20004`],
    ['statistics, last 30 days', `${project}/stats?from=${day(-29)}&to=${day(0)}`],
    ['statistics, last 365 days', `${project}/stats?from=${day(-364)}&to=${day(0)}`],
  ];
  const results: ReadResult[] = [];
  for (const [title, route] of reads) {
    const times: number[] = [];
    let matched = Number.NaN;
    for (let i = 0; i < UNTIMED + SCALE_SIZES.readRepeats; i++) {
      const started = performance.now();
      const res = await api(service.base, 'GET', route, { token: fixture.authorToken });
      const ms = performance.now() - started;
      if (res.status !== 200) fail(`GET ${route} answered HTTP ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
      if (i >= UNTIMED) times.push(ms);
      matched = title === 'card page' ? 1 : matchedOf(res.body);
    }
    times.sort((a, b) => a - b);
    results.push({
      title,
      route: route.slice(project.length),
      p50: times[Math.floor(times.length / 2)],
      max: times[times.length - 1],
      matched,
    });
  }
  return results;
}
