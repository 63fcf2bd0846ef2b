import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

/** `npm start`'s prestart (scripts/build.mjs) on a small checkout of its own: what it printed and its exit status. */
function build(root: string, ...args: string[]): { output: string; status: number | null } {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), ...args], {
    env: { ...process.env, BUILD_ROOT: root },
    encoding: 'utf8',
  });
  return { output: result.stdout + result.stderr, status: result.status };
}

describe('the build before a start (scripts/build.mjs)', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'ck-build-'));
    mkdirSync(join(root, 'src'));
    mkdirSync(join(root, 'migrations'));
    writeFileSync(join(root, 'src', 'main.ts'), 'export const answer: number = 1;\n');
    writeFileSync(
      join(root, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'commonjs', target: 'ES2022', rootDir: '.', outDir: './dist', types: [] } }),
    );
    writeFileSync(
      join(root, 'tsconfig.build.json'),
      JSON.stringify({ extends: './tsconfig.json', include: ['src'], exclude: ['**/*.spec.ts'] }),
    );
    writeFileSync(join(root, 'package.json'), '{}');
    writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3}');
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('compiles once, then starts the built files until a source changes', () => {
    const first = build(root);
    expect(first.output).toContain('server: compiling (no successful build recorded)');
    expect(first.status).toBe(0);
    const built = statSync(join(root, 'dist/src/main.js')).mtimeMs;

    const again = build(root);
    expect(again.output).toContain('server: sources unchanged since the last build, compile skipped');
    expect(statSync(join(root, 'dist/src/main.js')).mtimeMs).toBe(built);

    // A checkout or copy that touches files without changing them compiles nothing; a spec is not compiled.
    utimesSync(join(root, 'src/main.ts'), new Date(), new Date(Date.now() + 60_000));
    writeFileSync(join(root, 'src/main.spec.ts'), 'export {};\n');
    expect(build(root).output).toContain('compile skipped');

    writeFileSync(join(root, 'src/main.ts'), 'export const answer: number = 2;\n');
    const check = build(root, '--check');
    expect(check.output).toContain('server: stale (src/main.ts changed)');
    expect(check.status).toBe(1);
    const changed = build(root);
    expect(changed.output).toContain('server: compiling (src/main.ts changed)');
    expect(build(root, '--check').status).toBe(0);
  });

  it('keeps no stamp of a failed compile: the next start compiles again', () => {
    writeFileSync(join(root, 'src/main.ts'), 'export const answer: number = "not a number";\n');
    expect(build(root).status).not.toBe(0);
    // tsc still wrote main.js, but no stamp says those files are good.
    const check = build(root, '--check');
    expect(check.output).toContain('server: stale (no successful build recorded)');
    expect(check.status).toBe(1);
  });
});
