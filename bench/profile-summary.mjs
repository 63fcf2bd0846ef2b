// Where the service's CPU time goes, from a V8 CPU profile written by `BENCH_CPU_PROF=<dir> npm run bench`.
//
//   node bench/profile-summary.mjs <file.cpuprofile> [--window <adapter>/<scenario>]
//
// Self time is grouped by where the code comes from (PGlite's WebAssembly, the pg driver, TypeORM,
// Nest, the HTTP adapter, Node internals, garbage collection...), then the top functions are listed.
// With --window, only the samples taken while that scenario was measured are counted (bench/run.mjs
// records the windows in windows.json next to the profiles; both clocks are CLOCK_MONOTONIC).
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--') && args[args.indexOf(a) - 1] !== '--window');
const windowName = args.includes('--window') ? args[args.indexOf('--window') + 1] : undefined;
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.mjs <file.cpuprofile> [--window <adapter>/<scenario>]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));

let from = -Infinity;
let to = Infinity;
if (windowName) {
  const windowsFile = path.join(path.dirname(file), 'windows.json');
  if (!existsSync(windowsFile)) throw new Error(`${windowsFile} is missing`);
  const windows = JSON.parse(readFileSync(windowsFile, 'utf8'));
  const w = windows[windowName];
  if (!w) throw new Error(`no window "${windowName}" in ${windowsFile}; known: ${Object.keys(windows).join(', ')}`);
  [from, to] = [w.from, w.to];
}

const CATEGORIES = [
  ['idle', (f) => f.functionName === '(idle)'],
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  ['native / unattributed (program)', (f) => f.functionName === '(program)'],
  ['PGlite (WebAssembly + JS)', (f) => f.url.startsWith('wasm://') || f.url.includes('/@electric-sql/')],
  ['pg driver (protocol, pool)', (f) => /\/node_modules\/(pg|pg-protocol|pg-pool|pg-types|pgpass|postgres-[a-z]+)\//.test(f.url)],
  ['TypeORM', (f) => f.url.includes('/node_modules/typeorm/')],
  ['Redis clients + cache (ioredis, node-redis, keyv, cache-manager)', (f) => /\/node_modules\/(ioredis|redis-parser|@ioredis|@redis\/[^/]+|keyv|@keyv\/[^/]+|cache-manager|cacheable|@cacheable\/[^/]+|hookified)\//.test(f.url)],
  ['NestJS core', (f) => f.url.includes('/node_modules/@nestjs/core/') || f.url.includes('/node_modules/@nestjs/common/')],
  ['Express + body-parser', (f) => /\/node_modules\/(express|body-parser|router|raw-body|qs|finalhandler|send|serve-static|type-is|content-type|iconv-lite|on-finished|@nestjs\/platform-express)\//.test(f.url)],
  ['Fastify', (f) => /\/node_modules\/(fastify|find-my-way|avvio|light-my-request|@fastify\/[^/]+|fast-json-stringify|@nestjs\/platform-fastify|middie)\//.test(f.url)],
  ['helmet', (f) => /\/node_modules\/helmet\//.test(f.url)],
  ['class-validator / class-transformer', (f) => /\/node_modules\/(class-validator|class-transformer|validator)\//.test(f.url)],
  ['prom-client', (f) => f.url.includes('/node_modules/prom-client/')],
  ['rxjs', (f) => f.url.includes('/node_modules/rxjs/')],
  ['the app (dist/src)', (f) => f.url.includes('/dist/src/') || f.url.includes('/dist/migrations/')],
  ['Node internals (http, net, streams, crypto...)', (f) => f.url.startsWith('node:') || (f.url === '' && f.functionName !== '')],
  ['other node_modules', (f) => f.url.includes('/node_modules/')],
  ['other', () => true],
];

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const INTERNAL = new Set(['Node internals (http, net, streams, crypto...)', 'other']);
const ownCategory = (frame) => CATEGORIES.find(([, test]) => test(frame))[0];
const attributed = new Map();
/** Node internals (fs writes, socket writes, promise hooks...) are charged to the library that called them. */
function categoryOf(id) {
  if (attributed.has(id)) return attributed.get(id);
  const own = ownCategory(byId.get(id).callFrame);
  let category = own;
  if (INTERNAL.has(own)) {
    const parent = parentOf.get(id);
    const inherited = parent === undefined ? own : categoryOf(parent);
    category = INTERNAL.has(inherited) || ['idle', 'garbage collection', 'native / unattributed (program)'].includes(inherited) ? own : inherited;
  }
  attributed.set(id, category);
  return category;
}
const selfMicros = new Map();
let t = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i];
  if (t < from || t > to) continue;
  const dt = profile.timeDeltas[i + 1] ?? 0;
  selfMicros.set(profile.samples[i], (selfMicros.get(profile.samples[i]) ?? 0) + Math.max(0, dt));
}

const categories = new Map();
const functions = new Map();
let total = 0;
let busy = 0;
for (const [id, micros] of selfMicros) {
  const frame = byId.get(id).callFrame;
  const category = categoryOf(id);
  categories.set(category, (categories.get(category) ?? 0) + micros);
  total += micros;
  if (category !== 'idle') busy += micros;
  const short = frame.url.includes('/node_modules/') ? frame.url.replace(/^.*\/node_modules\//, '') : frame.url.replace(/^.*\/dist\//, 'dist/');
  const key = `${frame.functionName || '(anonymous)'}  ${short}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
  functions.set(key, (functions.get(key) ?? 0) + micros);
}

const pct = (x, of) => `${((100 * x) / of).toFixed(1).padStart(5)} %`;
console.log(`${path.basename(file)}${windowName ? ` (window ${windowName})` : ''}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (${pct(busy, total).trim()})`);
console.log('\nself time by origin, Node internals charged to the library that called them (share of busy time):');
for (const [name, micros] of [...categories].sort((a, b) => b[1] - a[1])) {
  if (name === 'idle') continue;
  console.log(`  ${pct(micros, busy)}  ${name}`);
}
console.log('\ntop functions by self time (share of busy time):');
for (const [name, micros] of [...functions].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, 15)) {
  console.log(`  ${pct(micros, busy)}  ${name}`);
}
