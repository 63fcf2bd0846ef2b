// The figures as text tables (terminal) and Markdown tables (docs/performance.md).
import { SCENARIOS, targetOn, targetText } from './scenarios';
import type { ScenarioResult } from './types';

export const fmtInt = (n: number): string => Math.round(n).toLocaleString('en-US');
export const fmtMs = (n: number): string => (n >= 10 ? String(Math.round(n)) : n.toFixed(1).replace(/\.0$/, ''));
export const fmtPct = (x: number): string => `${(x * 100).toFixed(1)} %`;

const COLUMNS = [
  ['adapter', 'adapter'],
  ['scenario', 'scenario'],
  ['rps', 'req/s'],
  ['p50', 'p50 ms'],
  ['p99', 'p99 ms'],
  ['non2xx', 'non-2xx'],
  ['statusFalse', 'status false'],
  ['errors', 'errors'],
  ['ratio', 'vs baseline'],
  ['around', 'vs baseline interleaved'],
  ['target', 'target'],
] as const;
type Column = (typeof COLUMNS)[number][0];
const NUMERIC: ReadonlySet<Column> = new Set<Column>(['rps', 'p50', 'p99', 'non2xx', 'statusFalse', 'errors', 'ratio', 'around']);
type Row = Record<Column | 'notes' | 'total', string>;

function rows(results: ScenarioResult[]): Row[] {
  return results.map((r) => {
    const baseline = results.find((b) => b.adapter === r.adapter && b.scenario === 'baseline');
    const ratio = baseline ? r.rps / baseline.rps : null;
    // A target is judged against the baseline interleaved with the scenario when there is one (measure.ts, runInterleaved).
    const around = r.aroundRatio ?? null;
    const judged = around ?? ratio;
    const target = targetOn(SCENARIOS[r.scenario].target, r.adapter);
    let verdict = '';
    if (target && judged !== null) {
      const met =
        judged >= target.ratio &&
        (!target.p99OverP50 || r.p99 <= target.p99OverP50 * r.p50) &&
        r.non2xx === 0 &&
        r.statusFalse === 0;
      verdict = met ? 'met' : 'MISSED';
    }
    const notes: string[] = [];
    const bare = results.find((b) => b.adapter === 'node:http' && b.scenario === 'baseline');
    if (r.scenario === 'baseline' && bare && r !== bare) notes.push(`${fmtPct(r.rps / bare.rps)} of the bare node:http server`);
    if (r.failures.length) notes.push(`failed answers, e.g. ${r.failures.join(' ')}`);
    if (!r.checkAfter) notes.push(`check after run failed: ${r.checkAfterDetail}`);
    if (typeof r.replayRefused === 'string') notes.push(`a replayed nonce is refused (${r.replayRefused})`);
    if (r.replayRefused === false) notes.push('A REPLAYED NONCE WAS ACCEPTED');
    return {
      adapter: r.adapter,
      scenario: SCENARIOS[r.scenario].short,
      rps: fmtInt(r.rps),
      p50: fmtMs(r.p50),
      p99: fmtMs(r.p99),
      non2xx: fmtInt(r.non2xx),
      statusFalse: r.scenario === 'baseline' ? '—' : fmtInt(r.statusFalse),
      errors: fmtInt(r.errors),
      ratio: r.scenario === 'baseline' ? '100 %' : ratio === null ? '—' : fmtPct(ratio),
      around: around === null ? '' : fmtPct(around),
      target: target ? `${targetText(target)}: ${verdict}` : '',
      notes: notes.join('; '),
      total: fmtInt(r.total),
    };
  });
}

export function textTable(results: ScenarioResult[]): string {
  const data = rows(results);
  const widths = COLUMNS.map(([key, title]) => Math.max(title.length, ...data.map((d) => d[key].length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (NUMERIC.has(COLUMNS[i][0]) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const out = [line(COLUMNS.map(([, t]) => t)), widths.map((w) => '-'.repeat(w)).join('  ')];
  let last: string | undefined;
  for (const d of data) {
    if (last && last !== d.adapter) out.push('');
    last = d.adapter;
    out.push(line(COLUMNS.map(([k]) => d[k])));
    if (d.notes) out.push(`    note: ${d.notes}`);
  }
  return out.join('\n');
}

export function markdownTable(results: ScenarioResult[]): string {
  const data = rows(results);
  const out = [
    `| ${COLUMNS.map(([, t]) => t).join(' | ')} |`,
    `|${COLUMNS.map(([k]) => (NUMERIC.has(k) ? '---:' : '---')).join('|')}|`,
  ];
  for (const d of data) out.push(`| ${COLUMNS.map(([k]) => d[k]).join(' | ')} |`);
  const notes = data.filter((d) => d.notes).map((d) => `- ${d.adapter} / ${d.scenario}: ${d.notes}`);
  return [...out, ...(notes.length ? ['', ...notes] : [])].join('\n');
}

const CPU_COLUMNS = [
  ['adapter', 'adapter'],
  ['scenario', 'scenario'],
  ['service', 'service'],
  ['serviceCores', 'service cores'],
  ['loadgen', 'load generator'],
  ['postgres', 'PostgreSQL'],
  ['redis', 'Redis'],
  ['other', 'other'],
  ['busy', 'machine busy'],
] as const;
type CpuRow = Record<(typeof CPU_COLUMNS)[number][0], string>;

function cpuRows(results: ScenarioResult[]): CpuRow[] {
  return results.flatMap((r) =>
    r.cpu
      ? [
          {
            adapter: r.adapter,
            scenario: SCENARIOS[r.scenario].short,
            service: r.cpu.service.toFixed(2),
            serviceCores: r.cpu.serviceCores.toFixed(2),
            loadgen: r.cpu.loadgen.toFixed(2),
            postgres: r.cpu.postgres.toFixed(2),
            redis: r.cpu.redis.toFixed(2),
            other: r.cpu.other.toFixed(2),
            busy: `${Math.round(r.cpu.busyShare * 100)} %`,
          },
        ]
      : [],
  );
}

export function cpuTextTable(results: ScenarioResult[]): string {
  const data = cpuRows(results);
  const widths = CPU_COLUMNS.map(([key, title]) => Math.max(title.length, ...data.map((d) => d[key].length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [
    line(CPU_COLUMNS.map(([, t]) => t)),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...data.map((d) => line(CPU_COLUMNS.map(([k]) => d[k]))),
  ].join('\n');
}

export function cpuMarkdownTable(results: ScenarioResult[]): string {
  const data = cpuRows(results);
  return [
    `| ${CPU_COLUMNS.map(([, t]) => t).join(' | ')} |`,
    `|${CPU_COLUMNS.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`,
    ...data.map((d) => `| ${CPU_COLUMNS.map(([k]) => d[k]).join(' | ')} |`),
  ].join('\n');
}

export const CPU_NOTE =
  'CPU ms per request over each measured run, from /proc: the service process (PGlite included on the embedded default), ' +
  "the load generator (the bench process), all PostgreSQL and Redis processes, and the rest of the machine's busy time " +
  '(other programs, kernel); "service cores" is the service\'s CPU time over the wall time.';
