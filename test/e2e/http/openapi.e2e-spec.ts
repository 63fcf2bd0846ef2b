import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ErrorCode } from '../../../src/core/errors/error-code';
import { insertCard } from '../../support/cards';
import { generateAndList, missingCard, paycheck } from '../../openapi/typed-calls';
import { buildWorld, World } from '../../support/world';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');
const COMMITTED = join(ROOT, 'openapi.json');
const TYPES = join(ROOT, 'console', 'src', 'api', 'schema.d.ts');
const REGENERATE = 'run `npm run openapi` and commit openapi.json and console/src/api/schema.d.ts';

/**
 * The API contract: the document the service serves is the committed openapi.json,
 * Redocly's recommended rules find nothing in it, the committed generated types are those of the
 * document, and calls typed by them (test/openapi/typed-calls.ts, type-checked by `npm run
 * typecheck`) get what the document promises from the real service.
 */
describe('OpenAPI document (e2e)', () => {
  let world: World;
  let served: Record<string, unknown>;

  beforeAll(async () => {
    world = await buildWorld();
    served = (await world.t.http().get('/docs-json').expect(200)).body;
  });
  afterAll(() => world.close());

  it('is the committed openapi.json', () => {
    const committed = JSON.parse(readFileSync(COMMITTED, 'utf8'));
    // One assertion per path first, so a drift names the route rather than dumping the document.
    for (const path of new Set([...Object.keys(committed.paths), ...Object.keys(served.paths as object)])) {
      expect({ path, operations: (served.paths as Record<string, unknown>)[path] }).toEqual({
        path,
        operations: committed.paths[path],
      });
    }
    expect(served).toEqual(committed);
  });

  it('passes Redocly lint with no error and no warning', async () => {
    const cli = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    const outcome = await run(
      process.execPath,
      [cli, 'lint', COMMITTED, '--config', join(ROOT, 'redocly.yaml'), '--format=json'],
      { cwd: ROOT },
    ).catch((error: { stdout: string }) => error);
    const problems = (
      JSON.parse(outcome.stdout) as { problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }> }
    ).problems;
    expect(problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('has committed types that openapi-typescript generates from it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-types-'));
    try {
      const cli = join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
      await run(process.execPath, [cli, COMMITTED, '--output', join(dir, 'schema.d.ts')], { cwd: ROOT });
      expect({ types: readFileSync(join(dir, 'schema.d.ts'), 'utf8'), hint: REGENERATE }).toEqual({
        types: readFileSync(TYPES, 'utf8'),
        hint: REGENERATE,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('a client generated from it', () => {
    let baseUrl: string;
    beforeAll(async () => {
      baseUrl = await world.t.baseUrl();
    });

    it('generates cards and lists them by batch with the documented fields and paging', async () => {
      const { batchId, listed, total } = await generateAndList(baseUrl, world.author.token, world.project.id);
      expect(total).toBe(3);
      expect(listed).toHaveLength(2);
      for (const card of listed) {
        expect(card).toMatchObject({
          batch_id: batchId,
          status: 'unused',
          kind: 'time',
          duration_seconds: 3600,
          device_limit: 2,
          note: 'typed client',
          devices: [],
        });
        expect(Object.keys(card).sort()).toEqual([
          'activated_at',
          'agent_id',
          'batch_id',
          'card_type_id',
          'code',
          'concurrent_limit',
          'created_at',
          'device_limit',
          'devices',
          'duration_seconds',
          'expires_at',
          'holder_email',
          'id',
          'kind',
          'last_login_at',
          'note',
          'status',
          'use_count',
          'uses_left',
        ]);
      }
    });

    it('reads a documented failure: the admin envelope with the catalog code', async () => {
      const failure = await missingCard(baseUrl, world.author.token, world.project.id);
      expect(failure).toEqual({ status: 404, code: ErrorCode.CARD_NOT_FOUND, requestId: expect.any(String) });
    });

    it('reads a client family answer: the legacy paycheck of an unused card', async () => {
      const card = await insertCard(world.t, world.project.id);
      expect(await paycheck(baseUrl, world.project.program_id, card.code)).toEqual({
        refused: false,
        activated: false,
        valid: false,
      });
      expect(await paycheck(baseUrl, world.project.program_id, 'NO-SUCH-CARD')).toEqual({
        refused: true,
        code: ErrorCode.CARD_INVALID,
      });
    });
  });
});
