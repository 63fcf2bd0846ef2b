import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import Ajv from 'ajv';
import draft07 from 'ajv/dist/refs/json-schema-draft-07.json';
import { parse as parseYaml } from 'yaml';

// Docker cannot run in CI here: these check what the image and the compose file are made of.
const ROOT = join(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface Copy {
  stage: number;
  from?: string;
  sources: string[];
}

/** The COPY instructions of docker/Dockerfile, by stage. */
function dockerfileCopies(): Copy[] {
  let stage = -1;
  const copies: Copy[] = [];
  for (const line of read('docker/Dockerfile').split('\n')) {
    if (/^FROM\s/i.test(line)) stage += 1;
    const copy = /^COPY\s+(.*)$/i.exec(line);
    if (!copy) continue;
    const words = copy[1].trim().split(/\s+/);
    const flags = words.filter((word) => word.startsWith('--'));
    const paths = words.filter((word) => !word.startsWith('--'));
    const from = flags.find((flag) => flag.startsWith('--from='))?.slice('--from='.length);
    copies.push({ stage, from, sources: paths.slice(0, -1) });
  }
  return copies;
}

/** Every path the build stage takes from the context: what `npm run build` inside the image can see. */
const contextSources = () =>
  dockerfileCopies()
    .filter((copy) => copy.stage === 0 && !copy.from)
    .flatMap((copy) => copy.sources.map((source) => normalize(source)));

const isCopied = (path: string) => contextSources().some((source) => path === source || path.startsWith(`${source}/`));

function filesUnder(path: string): string[] {
  const full = join(ROOT, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full).flatMap((name) => filesUnder(join(path, name)));
}

/** The local files an entry loads, transitively (relative imports; packages come from npm install). */
function localImports(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const source = read(entry);
  for (const [, spec] of source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const base = join(dirname(entry), spec);
    const candidates = [
      base,
      ...['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.css', '.json'].map((ext) => base + ext),
      join(base, 'index.ts'),
      join(base, 'index.tsx'),
    ];
    const found = candidates.find((candidate) => existsSync(join(ROOT, candidate)) && statSync(join(ROOT, candidate)).isFile());
    if (!found) throw new Error(`${entry} imports ${spec}, which does not exist`);
    localImports(found, seen);
  }
  return seen;
}

/** console/vite.config.ts's pages and, through their script tags, every local file they load. */
function consoleBuildInputs(): string[] {
  const config = read('console/vite.config.ts');
  const pages = [...config.matchAll(/new URL\('([^']+\.html)'/g)].map(([, page]) => join('console', page));
  expect(pages).toEqual(expect.arrayContaining(['console/index.html', 'console/portal.html']));
  const inputs = new Set<string>(['console/vite.config.ts', 'console/package.json', 'console/tsconfig.json', ...pages]);
  for (const page of pages) {
    for (const [, src] of read(page).matchAll(/<script[^>]*\ssrc="\/([^"]+)"/g))
      for (const file of localImports(join('console', src))) inputs.add(file);
  }
  for (const file of localImports('console/vite.config.ts')) inputs.add(file);
  return [...inputs];
}

/** The `inputs` a build script digests (scripts/build.mjs, console/scripts/build-if-changed.mjs), as repository paths. */
function digestedInputs(script: string, constant: string): string[] {
  const list = new RegExp(`const ${constant} = \\[([^\\]]+)\\]`).exec(read(script));
  if (!list) throw new Error(`no ${constant} in ${script}`);
  const base = script.startsWith('console/') ? 'console' : '.';
  return [...list[1].matchAll(/'([^']+)'/g)].map(([, path]) => normalize(join(base, path)));
}

/** .dockerignore as Docker reads it: patterns from the context's root, `**` any depth, a directory excluding what it holds. */
function dockerignored(): (path: string) => boolean {
  const patterns = read('.dockerignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  expect(patterns.some((pattern) => pattern.startsWith('!'))).toBe(false); // not handled below
  const regexps = patterns.map(
    (pattern) =>
      new RegExp(
        `^${pattern
          .replace(/^\/+/, '')
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*\*\//g, '\u0000')
          .replace(/\*\*/g, '\u0001')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]')
          .replace(/\u0000/g, '(?:.*/)?')
          .replace(/\u0001/g, '.*')}$`,
      ),
  );
  return (path) => {
    const parts = path.split('/');
    return parts.some((_, i) => regexps.some((regexp) => regexp.test(parts.slice(0, i + 1).join('/'))));
  };
}

describe('docker/Dockerfile', () => {
  it('copies only paths that exist', () => {
    const missing = contextSources().filter((source) => !existsSync(join(ROOT, source)));
    expect(missing).toEqual([]);
    expect(contextSources().length).toBeGreaterThan(5);
  });

  it('copies every input of the console build: both pages and every file they load', () => {
    const inputs = consoleBuildInputs();
    expect(inputs).toEqual(
      expect.arrayContaining(['console/portal.html', 'console/src/main.tsx', 'console/src/portal/main.tsx']),
    );
    expect(inputs.filter((input) => !isCopied(input))).toEqual([]);
  });

  it('copies every input the build scripts digest and the server compile reads', () => {
    const tsconfig = JSON.parse(read('tsconfig.build.json')) as { include: string[] };
    const inputs = [
      ...digestedInputs('scripts/build.mjs', 'SERVER_INPUTS'),
      ...digestedInputs('console/scripts/build-if-changed.mjs', 'inputs'),
      ...tsconfig.include,
      'scripts/build.mjs',
      'console/scripts/build-if-changed.mjs',
      'package.json',
      'package-lock.json',
    ];
    expect(inputs).toEqual(expect.arrayContaining(['src', 'migrations', 'console/portal.html', 'package-lock.json']));
    expect(inputs.filter((input) => !isCopied(input))).toEqual([]);
  });

  it('runs the Node line package.json names, with the memory settings a container needs', () => {
    const dockerfile = read('docker/Dockerfile');
    const [, major, minor] = /ARG NODE_IMAGE=node:(\d+)\.(\d+)-/.exec(dockerfile) ?? [];
    const [, floorMajor, floorMinor] =
      /^>=(\d+)\.(\d+)$/.exec((JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node) ?? [];
    expect(Number(major)).toBe(Number(floorMajor));
    expect(Number(minor)).toBeGreaterThanOrEqual(Number(floorMinor));
    expect(dockerfile).toMatch(/^ENV .*\bMALLOC_ARENA_MAX=2\b/m);
    expect(dockerfile).toMatch(/^CMD \["node", "--heap-growing-percent=100", "dist\/src\/main\.js"\]$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\/health\/ready/m);
  });

  it('leaves the data directory, packages, builds, test outputs and secrets out of the context, and nothing it copies', () => {
    const ignored = dockerignored();
    for (const path of [
      'data/admin-password.txt',
      'data/encryption.key',
      'node_modules/x/index.js',
      'console/node_modules/x.js',
      '.git/HEAD',
      'dist/src/main.js',
      'console/dist/index.html',
      'coverage/lcov.info',
      'test-results/a.png',
      '.env',
      'docker/.env',
    ]) {
      expect([path, ignored(path)]).toEqual([path, true]);
    }
    const copiedFiles = contextSources().flatMap((source) => filesUnder(source));
    expect(copiedFiles.filter(ignored)).toEqual([]);
  });

  // The console built in a directory holding exactly what the Dockerfile copies (packages linked in,
  // as npm install makes them in the image): a page or import the Dockerfile forgets fails here.
  it('builds the console from exactly the copied files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-docker-context-'));
    try {
      for (const source of contextSources()) {
        mkdirSync(dirname(join(dir, source)), { recursive: true });
        cpSync(join(ROOT, source), join(dir, source), { recursive: true });
      }
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
      if (existsSync(join(ROOT, 'console/node_modules')))
        symlinkSync(join(ROOT, 'console/node_modules'), join(dir, 'console/node_modules'));
      const result = spawnSync(process.execPath, ['scripts/build-if-changed.mjs', '--force'], {
        cwd: join(dir, 'console'),
        encoding: 'utf8',
      });
      expect([result.status, result.stderr.slice(-2000)]).toEqual([0, expect.anything()]);
      expect(existsSync(join(dir, 'console/dist/index.html'))).toBe(true);
      expect(existsSync(join(dir, 'console/dist/portal.html'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

type Service = {
  profiles?: string[];
  command?: string[];
  environment?: Record<string, string>;
  ports?: unknown[];
  healthcheck?: { test: string[] };
  networks?: Record<string, { ipv4_address?: string } | null> | string[];
};
type Compose = {
  services: Record<string, Service>;
  networks: Record<string, { ipam?: { config: Array<{ subnet: string }> }; internal?: boolean }>;
};

describe('docker/compose.yml', () => {
  const compose = parseYaml(read('docker/compose.yml'), { merge: true }) as Compose;
  const { services } = compose;

  function validator() {
    const ajv = new Ajv({ strict: false, allErrors: true });
    // The schema names draft-07 by its https address; Ajv knows it by the http one.
    ajv.addMetaSchema({ ...draft07, $id: 'https://json-schema.org/draft-07/schema' });
    return ajv.compile(JSON.parse(read('docker/compose-spec.schema.json')) as object);
  }

  it('is valid against the Compose Specification schema, which refuses a misspelt key', () => {
    const validate = validator();
    expect([validate(compose), validate.errors]).toEqual([true, null]);
    const misspelt = structuredClone(compose);
    (misspelt.services.redis.healthcheck as Record<string, unknown>).intervall = '5s';
    expect(validate(misspelt)).toBe(false);
  });

  it('runs Redis with AOF persistence', () => {
    expect(services.redis.command?.join(' ')).toMatch(/--appendonly yes\b/);
  });

  it('believes forwarded addresses from Caddy only, at its fixed address on the edge network', () => {
    const caddyNetworks = services.caddy.networks as Record<string, { ipv4_address: string }>;
    const caddyAddress = caddyNetworks.edge.ipv4_address;
    expect(services.app.environment?.TRUST_PROXY).toBe(caddyAddress);
    const [subnet] = compose.networks.edge.ipam!.config;
    expect(caddyAddress.split('.').slice(0, 3).join('.')).toBe(subnet.subnet.split('.').slice(0, 3).join('.'));
    expect(read('docker/Caddyfile')).toMatch(/^\s*reverse_proxy app:3000\b/m);
  });

  it('publishes Caddy only, and Caddy refuses /metrics', () => {
    const publishing = Object.entries(services)
      .filter(([, service]) => service.ports?.length)
      .map(([name]) => name);
    expect(publishing).toEqual(['caddy']);
    expect(compose.networks.backend.internal).toBe(true);
    const caddyfile = read('docker/Caddyfile');
    const [, name, pattern] = /@(\w+) path_regexp \w+ (\S+)/.exec(caddyfile) ?? [];
    expect(caddyfile).toMatch(new RegExp(`^\\s*respond @${name} 404$`, 'm'));
    const regexp = new RegExp(pattern.replace(/^\(\?i\)/, ''), pattern.startsWith('(?i)') ? 'i' : '');
    for (const path of ['/metrics', '/METRICS', '/Metrics/', '/metrics/x'])
      expect([path, regexp.test(path)]).toEqual([path, true]);
    expect(regexp.test('/api/metricsx')).toBe(false);
  });

  it('bounds the workers so that their pools stay under PostgreSQL max_connections', () => {
    const workers = /^\$\{WORKERS:-(\d+)\}$/.exec(services.app.environment?.WORKERS ?? '');
    expect(workers).not.toBeNull();
    const [, pool] = /SERVER_POOL_SIZE = (\d+);/.exec(read('src/database/database.module.ts')) ?? [];
    const maxConnections = Number(/max_connections=(\d+)/.exec(services.postgres.command?.join(' ') ?? '')?.[1]);
    // Three connections are PostgreSQL's superuser reserve; the doctor and a psql need a few more.
    expect(Number(workers![1]) * Number(pool)).toBeLessThanOrEqual(maxConnections - 10);
  });

  it('gives the service the memory settings, production mode and its data volume', () => {
    expect(services.app.environment).toMatchObject({ MALLOC_ARENA_MAX: '2', NODE_ENV: 'production', DATA_DIR: '/data' });
  });

  it('health-checks every long-running service, and has a setup profile that prints the first admin', () => {
    const running = Object.entries(services).filter(([, service]) => !service.profiles);
    expect(running.map(([name]) => name).sort()).toEqual(['app', 'caddy', 'postgres', 'redis']);
    for (const [name, service] of running) expect([name, service.healthcheck?.test?.length]).toEqual([name, expect.any(Number)]);
    expect(services.setup.profiles).toEqual(['setup']);
    expect(services.setup.command?.join(' ')).toContain('/data/admin-password.txt');
    // The page it sends the operator to exists: the console's Account page (POST /admin/v1/auth/password).
    expect(services.setup.command?.join(' ')).toContain('/console/account');
  });

  it('needs Compose v2, and stops docker-compose 1.x with a message that says so', () => {
    // 1.x (Debian 12's 1.29) reads no `${VAR:+…}`: it interpolates the services in file order and
    // quotes the first one it meets, which must be the guard's, in the first service's labels.
    const strings = function* walk(value: unknown): Generator<string> {
      if (typeof value === 'string') yield value;
      else if (Array.isArray(value)) for (const item of value) yield* walk(item);
      else if (value && typeof value === 'object') for (const item of Object.values(value)) yield* walk(item);
    };
    const firstPlus = [...strings(services)].find((value) => /\$\{[A-Za-z_]\w*:\+/.test(value));
    expect(firstPlus).toMatch(
      /^needs Compose v2 \(docker compose\), not docker-compose 1\.x: docs\/operations\.md, Docker\$\{\w+:\+/,
    );
    expect(Object.keys(services)[0]).toBe('postgres');
    expect((services.postgres as { labels?: Record<string, string> }).labels?.['cardkey.compose']).toBe(firstPlus);
    expect((compose as { name?: string }).name).toBe('cardkey');
    expect(read('docs/operations.md')).toContain('Compose v2 required');
  });

  it('takes its secrets from docker/.env, which git ignores, and refuses to start without them', () => {
    expect(services.app.environment?.APP_ENCRYPTION_KEY).toMatch(/^\$\{APP_ENCRYPTION_KEY:\?/);
    expect(services.postgres.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(read('.gitignore').split('\n')).toContain('.env');
  });
});
