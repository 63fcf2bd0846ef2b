import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { OUT_DIR, ROOT } from './service-process';

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${code})`))));
  });
}

/**
 * Builds the console and the server from the current tree, once per run; each worker then starts its
 * own service from the build (support.ts, service-process.ts). Neither build reads the other's output,
 * and each uses about one core: they run at once.
 */
export default async function globalSetup(): Promise<void> {
  await Promise.all([
    run(process.execPath, [join(ROOT, 'console', 'scripts', 'build-if-changed.mjs')]),
    run(process.execPath, [
      join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      'tsconfig.build.json',
      '--outDir',
      OUT_DIR,
    ]),
  ]);
}
