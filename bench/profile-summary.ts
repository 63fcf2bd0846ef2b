// Where the service's CPU time goes, from a V8 CPU profile written by `BENCH_CPU_PROF=<dir> npm run bench`.
//
//   node dist/bench/profile-summary.js <file.cpuprofile> [--window <adapter>/<scenario>]
//
// Self time is grouped by where the code comes from (PGlite's WebAssembly, the pg driver, TypeORM,
// Nest, the HTTP adapter, Node internals, garbage collection...), then the top functions are listed.
// With --window, only the samples taken while that scenario was measured are counted (the bench
// records the windows, one per measured slice, in windows.json next to the profiles; both clocks are
// CLOCK_MONOTONIC).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--') && args[args.indexOf(a) - 1] !== '--window');
const windowName = args.includes('--window') ? args[args.indexOf('--window') + 1] : undefined;
if (!file) {
  process.stderr.write('usage: node dist/bench/profile-summary.js <file.cpuprofile> [--window <adapter>/<scenario>]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

type Window = { from: number; to: number };
/** The measured windows (a scenario interleaved with the baseline has one per slice); none: the whole profile. */
let windows: Window[] = [{ from: -Infinity, to: Infinity }];
if (windowName) {
  const windowsFile = path.join(path.dirname(file), 'windows.json');
  if (!existsSync(windowsFile)) throw new Error(`${windowsFile} is missing`);
  const known = JSON.parse(readFileSync(windowsFile, 'utf8')) as Record<string, Window | Window[] | undefined>;
  const w = known[windowName];
  if (!w) throw new Error(`no window "${windowName}" in ${windowsFile}; known: ${Object.keys(known).join(', ')}`);
  windows = Array.isArray(w) ? w : [w];
}
const measured = (t: number): boolean => windows.some((w) => t >= w.from && t <= w.to);

const NODE_MODULES = (names: string): RegExp => new RegExp(`/node_modules/(${names})/`);
const CATEGORIES: [string, (f: CallFrame) => boolean][] = [
  ['idle', (f) => f.functionName === '(idle)'],
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  ['native / unattributed (program)', (f) => f.functionName === '(program)'],
  ['PGlite (WebAssembly + JS)', (f) => f.url.startsWith('wasm://') || f.url.includes('/@electric-sql/')],
  ['pg driver (protocol, pool)', (f) => NODE_MODULES('pg|pg-protocol|pg-pool|pg-types|pgpass|postgres-[a-z]+').test(f.url)],
  ['TypeORM', (f) => f.url.includes('/node_modules/typeorm/')],
  [
    'Redis clients + cache (ioredis, node-redis, keyv, cache-manager)',
    (f) =>
      NODE_MODULES(
        'ioredis|redis-parser|@ioredis|@redis/[^/]+|keyv|@keyv/[^/]+|cache-manager|cacheable|@cacheable/[^/]+|hookified',
      ).test(f.url),
  ],
  ['NestJS core', (f) => f.url.includes('/node_modules/@nestjs/core/') || f.url.includes('/node_modules/@nestjs/common/')],
  [
    'Express + body-parser',
    (f) =>
      NODE_MODULES(
        'express|body-parser|router|raw-body|qs|finalhandler|send|serve-static|type-is|content-type|iconv-lite|on-finished|@nestjs/platform-express',
      ).test(f.url),
  ],
  [
    'Fastify',
    (f) =>
      NODE_MODULES(
        'fastify|find-my-way|avvio|light-my-request|@fastify/[^/]+|fast-json-stringify|@nestjs/platform-fastify|middie',
      ).test(f.url),
  ],
  ['helmet', (f) => NODE_MODULES('helmet').test(f.url)],
  ['class-validator / class-transformer', (f) => NODE_MODULES('class-validator|class-transformer|validator').test(f.url)],
  ['prom-client', (f) => f.url.includes('/node_modules/prom-client/')],
  ['rxjs', (f) => f.url.includes('/node_modules/rxjs/')],
  ['the app (dist/src)', (f) => f.url.includes('/dist/src/') || f.url.includes('/dist/migrations/')],
  ['Node internals (http, net, streams, crypto...)', (f) => f.url.startsWith('node:') || (f.url === '' && f.functionName !== '')],
  ['other node_modules', (f) => f.url.includes('/node_modules/')],
  ['other', () => true],
];

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const INTERNAL = new Set(['Node internals (http, net, streams, crypto...)', 'other']);
const frameOf = (id: number): CallFrame => {
  const node = byId.get(id);
  if (!node) throw new Error(`the profile has no node ${id}`);
  return node.callFrame;
};
const ownCategory = (frame: CallFrame): string => CATEGORIES.find(([, test]) => test(frame))?.[0] ?? 'other';
const attributed = new Map<number, string>();
/** Node internals (fs writes, socket writes, promise hooks...) are charged to the library that called them. */
function categoryOf(id: number): string {
  const known = attributed.get(id);
  if (known !== undefined) return known;
  const own = ownCategory(frameOf(id));
  let category = own;
  if (INTERNAL.has(own)) {
    const parent = parentOf.get(id);
    const inherited = parent === undefined ? own : categoryOf(parent);
    category =
      INTERNAL.has(inherited) || ['idle', 'garbage collection', 'native / unattributed (program)'].includes(inherited)
        ? own
        : inherited;
  }
  attributed.set(id, category);
  return category;
}
const selfMicros = new Map<number, number>();
let t = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i];
  if (!measured(t)) continue;
  const dt = profile.timeDeltas[i + 1] ?? 0;
  selfMicros.set(profile.samples[i], (selfMicros.get(profile.samples[i]) ?? 0) + Math.max(0, dt));
}

const categories = new Map<string, number>();
const functions = new Map<string, number>();
let total = 0;
let busy = 0;
for (const [id, micros] of selfMicros) {
  const frame = frameOf(id);
  const category = categoryOf(id);
  categories.set(category, (categories.get(category) ?? 0) + micros);
  total += micros;
  if (category !== 'idle') busy += micros;
  const short = frame.url.includes('/node_modules/')
    ? frame.url.replace(/^.*\/node_modules\//, '')
    : frame.url.replace(/^.*\/dist\//, 'dist/');
  const key = `${frame.functionName || '(anonymous)'}  ${short}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
  functions.set(key, (functions.get(key) ?? 0) + micros);
}

const pct = (x: number, of: number): string => `${((100 * x) / of).toFixed(1).padStart(5)} %`;
out(
  `${path.basename(file)}${windowName ? ` (window ${windowName})` : ''}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (${pct(busy, total).trim()})`,
);
out('\nself time by origin, Node internals charged to the library that called them (share of busy time):');
for (const [name, micros] of [...categories].sort((a, b) => b[1] - a[1])) {
  if (name === 'idle') continue;
  out(`  ${pct(micros, busy)}  ${name}`);
}
out('\ntop functions by self time (share of busy time):');
for (const [name, micros] of [...functions]
  .filter(([k]) => !k.startsWith('(idle)'))
  .sort((a, b) => b[1] - a[1])
  .slice(0, 15)) {
  out(`  ${pct(micros, busy)}  ${name}`);
}
