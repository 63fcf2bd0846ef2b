// Builds the console with Vite unless its sources are those of the last build, so that `npm start`
// (prestart: npm run build) stays fast on a restart. The digest covers every input of the bundle:
// the sources, the pages, the Vite config, the console's package.json and the lockfile (versions).
// `--check` only says whether it is stale (exit status 1 when it is); `--force` builds anyway.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist');
const digestFile = join(outDir, '.source-digest');
const inputs = [
  'src',
  'index.html',
  'portal.html',
  'shop.html',
  'vite.config.ts',
  'tsconfig.json',
  'package.json',
  '../package-lock.json',
];

function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => filesUnder(join(path, name)));
}

function sourceDigest() {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((input) => filesUnder(join(root, input)))) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const digest = sourceDigest();
const built = existsSync(join(outDir, 'index.html')) && existsSync(digestFile) && readFileSync(digestFile, 'utf8') === digest;
if (built && !process.argv.includes('--force')) {
  console.log('console: sources unchanged since the last build, Vite build skipped');
} else if (process.argv.includes('--check')) {
  console.log('console: stale (sources changed since the last build, or never built here)');
  process.exit(1);
} else {
  const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(digestFile, digest);
}
