// `npm run build` and `npm start` (prestart): compiles the server (tsc) and builds the web console
// (Vite, console/scripts/build-if-changed.mjs) only when their inputs differ from those of the last
// successful build. A restart with nothing changed then starts the built files at once (the
// compiler alone took 65 s of every start). `--force` rebuilds both; `--check` only says what is
// stale and exits 1 if anything is. BUILD_ROOT (tests) names another checkout.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.env.BUILD_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');
const checkOnly = process.argv.includes('--check');

// What tsconfig.build.json compiles, and what changes its output: specs are excluded there too.
const SERVER_INPUTS = ['src', 'migrations', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const SERVER_OUTPUT = join(root, 'dist', 'src', 'main.js');
const SERVER_STAMP = join(root, 'dist', '.build-stamp.json');
const isServerInput = (path) => !path.endsWith('.spec.ts');

function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => filesUnder(join(path, name)));
}

/** Path → SHA-256 of the content: content, not mtimes, so a checkout or a copy that touches every file rebuilds nothing. */
function inputHashes(inputs, keep) {
  const hashes = {};
  for (const file of inputs.flatMap((input) => filesUnder(join(root, input)))) {
    const path = relative(root, file).split(sep).join('/');
    if (keep(path)) hashes[path] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  return hashes;
}

/** The first difference between the last build's inputs and today's, in words; null when none. */
function firstChange(before, now) {
  for (const [path, hash] of Object.entries(now)) {
    if (!(path in before)) return `${path} added`;
    if (before[path] !== hash) return `${path} changed`;
  }
  const removed = Object.keys(before).find((path) => !(path in now));
  return removed ? `${removed} removed` : null;
}

function readStamp(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function run(args, cwd = root) {
  const result = spawnSync(process.execPath, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function buildServer() {
  const inputs = inputHashes(SERVER_INPUTS, isServerInput);
  const stamp = existsSync(SERVER_OUTPUT) ? readStamp(SERVER_STAMP) : null;
  const reason = force ? 'forced' : stamp ? firstChange(stamp, inputs) : 'no successful build recorded';
  if (!reason) {
    console.log('server: sources unchanged since the last build, compile skipped');
    return true;
  }
  if (checkOnly) {
    console.log(`server: stale (${reason})`);
    return false;
  }
  console.log(`server: compiling (${reason})`);
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  const tsc = join(dirname(createRequire(join(root, 'package.json')).resolve('typescript/package.json')), 'bin', 'tsc');
  run([tsc, '-p', 'tsconfig.build.json']);
  // Written after a successful compile only, with the inputs as they were when it began.
  mkdirSync(dirname(SERVER_STAMP), { recursive: true });
  writeFileSync(SERVER_STAMP, JSON.stringify(inputs));
  return true;
}

function buildConsole() {
  const script = join(root, 'console', 'scripts', 'build-if-changed.mjs');
  if (!existsSync(script)) return true; // a tree without the console (this script's own test)
  if (checkOnly) return spawnSync(process.execPath, [script, '--check'], { cwd: join(root, 'console'), stdio: 'inherit' }).status === 0;
  run([script, ...(force ? ['--force'] : [])], join(root, 'console'));
  return true;
}

const consoleFresh = buildConsole();
const serverFresh = buildServer();
if (checkOnly && !(consoleFresh && serverFresh)) process.exit(1);
