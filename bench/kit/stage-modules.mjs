// `npm run bench:kit`, step "modules": copies the production dependency closure of the service (the
// root package.json's dependencies, followed through every package's dependencies, optional and peer
// dependencies that are installed) plus the load generator (autocannon) from this checkout's
// node_modules into the kit, offline: no second `npm install`, no registry. What no run of the kit
// loads stays behind: types, source maps, docs, tests, other platforms' prebuilt addons, the embedded
// database's engine (the kit always runs on PostgreSQL) and typeorm's browser build.
//
//   node bench/kit/stage-modules.mjs <checkout> <destination node_modules>
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const [root, dest] = process.argv.slice(2);
if (!root || !dest) {
  console.error('usage: node bench/kit/stage-modules.mjs <checkout> <destination node_modules>');
  process.exit(2);
}
const rootModules = join(root, 'node_modules');
const pkg = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** Where `name` resolves from package directory `from`, as Node looks it up (nearest node_modules first). */
function resolvePackage(name, from) {
  for (let dir = from; dir.startsWith(root); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root) break;
  }
  return null;
}

// Peer dependencies that only tooling needs (a package that names the compiler as an optional peer).
const NEVER = new Set(['typescript']);
const seeds = [...Object.keys(pkg(root).dependencies ?? {}), 'autocannon'];
const keep = new Set();
const queue = seeds.map((name) => resolvePackage(name, root)).filter(Boolean);
while (queue.length) {
  const dir = queue.pop();
  if (keep.has(dir)) continue;
  keep.add(dir);
  const p = pkg(dir);
  for (const name of Object.keys({ ...p.dependencies, ...p.optionalDependencies, ...p.peerDependencies })) {
    if (NEVER.has(name)) continue;
    const found = resolvePackage(name, dir);
    if (found && !keep.has(found)) queue.push(found);
  }
}

const DROP_DIRS = new Set(['test', 'tests', '__tests__', 'docs', 'doc', 'example', 'examples', '.github', 'benchmark', 'benchmarks', 'coverage']);
const DROP_FILE = /(\.d\.[cm]?ts|\.map|\.md|\.markdown|(?<!\.d)\.[cm]?ts|\.tsbuildinfo|\.flow|\.tgz)$|^(\.eslintrc.*|\.prettierrc.*|\.npmignore|\.editorconfig)$/i;
function dropped(path) {
  const rel = relative(rootModules, path);
  const parts = rel.split('/');
  const base = parts[parts.length - 1];
  if (parts.includes('.bin')) return true;
  // Nested node_modules are copied as packages of their own (when kept), not as part of their parent.
  if (base === 'node_modules') return true;
  if (statSync(path).isDirectory()) {
    if (DROP_DIRS.has(base)) return true;
    const prebuild = parts.indexOf('prebuilds');
    if (prebuild >= 0 && prebuild === parts.length - 2 && !base.startsWith('linux-x64')) return true;
    if (rel === 'typeorm/browser') return true;
    return false;
  }
  if (DROP_FILE.test(base)) return true;
  if (parts[0] === '@electric-sql' && /\.(wasm|data|tar\.gz)$/.test(base)) return true;
  return false;
}

rmSync(dest, { recursive: true, force: true });
mkdirSync(dest, { recursive: true });
for (const dir of [...keep].sort()) {
  const target = join(dest, relative(rootModules, dir));
  cpSync(dir, target, { recursive: true, dereference: true, filter: (source) => source === dir || !dropped(source) });
}
const size = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? size(join(dir, e.name)) : statSync(join(dir, e.name)).size), 0);
console.log(`modules: ${keep.size} packages, ${(size(dest) / 2 ** 20).toFixed(1)} MiB (from ${relative(process.cwd(), rootModules) || rootModules})`);
