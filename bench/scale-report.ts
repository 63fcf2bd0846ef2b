// The scale mode's report: logins at 100,000 cards against the grown project, and the author's reads
// at that size, on the terminal and in the `scale` section of docs/performance.md.
import path from 'node:path';
import { READ_TARGET_MS } from './admin-reads';
import type { BackupCost } from './backup-during-logins';
import { commandLine, rssLine, writeSection } from './report';
import type { ScaleReport } from './scale';
import { SCENARIOS } from './scenarios';
import { DOC, ROOT, S, SCALE_SIZES } from './settings';
import { fmtInt, fmtMs, fmtPct } from './tables';
import type { BenchContext, ScenarioResult } from './types';

/** The issue's bound: login throughput at scale within 10 % of the 100,000-card run. */
const LOGIN_DROP_ALLOWED = 0.1;

function markdown(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const baselineOf = (results: ScenarioResult[], r: ScenarioResult) =>
  results.find((b) => b.adapter === r.adapter && b.scenario === 'baseline');

/**
 * One row per scenario: req/s on both databases, the change, and the change relative to the baseline
 * measured on each (what the two services' own speeds differ by taken out).
 */
function loginTable(report: ScaleReport): string {
  const rows = report.large.map((large) => {
    const small = report.small.find((s) => s.adapter === large.adapter && s.scenario === large.scenario);
    const change = small ? large.rps / small.rps - 1 : Number.NaN;
    const [bs, bl] = [small && baselineOf(report.small, small), baselineOf(report.large, large)];
    const relative =
      small && bs && bl && large.scenario !== 'baseline' ? large.rps / bl.rps / (small.rps / bs.rps) - 1 : Number.NaN;
    const verdict = Number.isNaN(relative) ? '' : relative >= -LOGIN_DROP_ALLOWED ? 'met' : 'MISSED';
    const signed = (x: number) => (Number.isNaN(x) ? '—' : `${x >= 0 ? '+' : ''}${fmtPct(x)}`);
    return [
      large.adapter,
      SCENARIOS[large.scenario].short,
      small ? `${fmtInt(small.rps)} (p50 ${fmtMs(small.p50)}, p99 ${fmtMs(small.p99)})` : '—',
      `${fmtInt(large.rps)} (p50 ${fmtMs(large.p50)}, p99 ${fmtMs(large.p99)})`,
      signed(change),
      `${signed(relative)}${verdict ? ` ${verdict}` : ''}`,
      fmtInt(large.non2xx + large.statusFalse + large.errors),
    ];
  });
  return markdown(
    [
      'adapter',
      'scenario',
      `req/s at ${fmtInt(S.cards)} cards (ms)`,
      'req/s grown (ms)',
      'change',
      'change vs baseline (≥ −10 %)',
      'failed',
    ],
    rows,
  );
}

function readTable(report: ScaleReport): string {
  return markdown(
    ['read', 'request', 'matched', 'p50 ms', `max ms (≤ ${READ_TARGET_MS})`],
    report.reads.map((r) => [
      r.title,
      `\`${r.route}\``,
      fmtInt(r.matched),
      r.p50.toFixed(1),
      `${r.max.toFixed(1)} ${r.max <= READ_TARGET_MS ? 'met' : 'MISSED'}`,
    ]),
  );
}

/** The bound for logins during a backup (decisions §24): p99 at most twice what it is without one. */
const BACKUP_P99_ALLOWED = 2;

function backupLine(b: BackupCost): string {
  const ratio = b.during.p99 / b.without.p99;
  return (
    `A backup of the grown database (\`npm run backup\`, ${fmtInt(b.rows)} rows) beside the running service took ${b.backupSeconds.toFixed(0)} s ` +
    `(${fmtInt(Math.round(b.archiveBytes / 1024 / 1024))} MiB archive); the bound-device login during it ${fmtInt(b.during.rps)} req/s, p99 ${fmtMs(b.during.p99)} ms, ` +
    `against ${fmtInt(b.without.rps)} req/s, p99 ${fmtMs(b.without.p99)} ms in the slices before and after: p99 ×${ratio.toFixed(2)} ` +
    `(≤ ×${BACKUP_P99_ALLOWED} ${ratio <= BACKUP_P99_ALLOWED ? 'met' : 'MISSED'}). Restoring that archive into an empty database (\`npm run restore\`) took ${b.restoreSeconds.toFixed(0)} s.`
  );
}

export function writeScaleReport(ctx: BenchContext, report: ScaleReport, log: (line: string) => void, writeDoc: boolean): void {
  const g = report.growth;
  const m = report.machine;
  const block = [
    `### ${ctx.label}`,
    '',
    `Measured ${report.date} with \`${commandLine(ctx, 'npm run bench:scale')}\` on ${report.code}, in ${fmtInt(report.seconds)} s.`,
    `Machine: ${m.cores} cores (${m.model}), ${m.memory} RAM, ${m.platform}, Node ${m.node}${report.versions ? `, ${report.versions}` : ''}.`,
    `Load: autocannon ${S.connections} connections, ${S.duration} s per scenario after a ${S.warmup} s warm-up, on the same cores; load average before / after ${m.loadBefore.toFixed(2)} / ${report.loadAfter.toFixed(2)}.`,
    `Growth (SQL, on a copy of the seeded database): ${fmtInt(g.cards)} filler cards in ${g.cardSeconds.toFixed(0)} s with ${fmtInt(g.devices)} bound devices, ` +
      `${fmtInt(g.logRows)} log rows over 365 days in ${g.logSeconds.toFixed(0)} s, VACUUM ANALYZE ${g.vacuumSeconds.toFixed(0)} s; ` +
      `then written out before the runs (${g.settle.dirtyMb === null ? 'the kernel’s dirty pages' : `${fmtInt(Math.round(g.settle.dirtyMb))} MB of the kernel’s dirty pages`}, ` +
      `${g.settle.checkpointed ? 'CHECKPOINT' : 'no CHECKPOINT: not allowed for this role'}, sync) in ${g.settle.seconds.toFixed(0)} s.`,
    '',
    `Logins on the seeded database (${fmtInt(S.cards)} cards, the log of the seeding only) and on its copy grown to ${fmtInt(SCALE_SIZES.cards)} cards and ` +
      `${fmtInt(SCALE_SIZES.logRows)} log rows, a service on each side by side, every scenario A-B-B-A between them (half the duration each time):`,
    '',
    loginTable(report),
    '',
    `The author's reads of the grown project, one at a time on the idle service, ${SCALE_SIZES.readRepeats} timed requests each (HTTP, from the bench process):`,
    '',
    readTable(report),
    ...(report.backup ? ['', backupLine(report.backup)] : []),
    ...(rssLine(report) ? ['', rssLine(report)] : []),
  ].join('\n');
  log(`\n${block}`);
  if (writeDoc) {
    writeSection('scale', block);
    log(`\nfigures written to ${path.relative(ROOT, DOC)} (scale section)`);
  } else {
    log('\n(non-default settings: docs/performance.md left as is; BENCH_WRITE_DOC=1 writes it anyway)');
  }
}
