import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { OUT_DIR, ROOT } from './service-process';

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
}

/**
 * Builds the console and the server from the current tree, once per run; each worker then starts its
 * own service from the build (support.ts, service-process.ts).
 */
export default function globalSetup(): void {
  run(process.execPath, [join(ROOT, 'console', 'scripts', 'build-if-changed.mjs')]);
  run(process.execPath, [
    join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-p',
    'tsconfig.build.json',
    '--outDir',
    OUT_DIR,
  ]);
}
