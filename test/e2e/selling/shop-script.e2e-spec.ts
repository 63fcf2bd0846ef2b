import { execFile } from 'node:child_process';
import { createServer, Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AdminClient, login } from '../../support/admin-client';
import { startTestApp, TestApp, unique } from '../../support/test-app';

/**
 * examples/shop/shop.mjs, run as a shop runs it against the real service (docs/shop-integration.md):
 * an agent with a balance, its API key with `orders:create` limited to the project and the shop's
 * address, one order per payment. Needs the orders and agents routes (decisions §19).
 */
const ROOT = join(__dirname, '..', '..', '..');
const SCRIPT = join(ROOT, 'examples', 'shop', 'shop.mjs');
const PRICE = 1000;

interface Outcome {
  code: number | null;
  lines: Array<Record<string, unknown> & { order_id: string; ok: boolean; cards?: string[] }>;
  stderr: string;
}

describe('the shop script (e2e)', () => {
  let t: TestApp;
  let baseUrl: string;
  let projectId: string;
  let typeId: number;
  let agentId: string;
  let agent: AdminClient;
  let key: string;
  let dir: string;

  const db = () => t.app.get(DataSource);
  const balance = async () =>
    Number((await db().query(`SELECT balance_cents FROM agents WHERE id = $1`, [agentId]))[0].balance_cents);

  /** Runs the script on these payments (one JSON line each) against `url`. */
  function shop(payments: object[], url = baseUrl, apiKey = key): Promise<Outcome> {
    const file = join(dir, `${unique('payments')}.jsonl`);
    writeFileSync(file, payments.map((p) => JSON.stringify({ card_type_id: typeId, ...p })).join('\n') + '\n');
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      CARDKEY_URL: url,
      CARDKEY_API_KEY: apiKey,
      CARDKEY_PROJECT_ID: projectId,
      CARDKEY_RETRIES: '3',
    };
    return new Promise((resolve) => {
      execFile(process.execPath, [SCRIPT, file], { env, timeout: 30_000 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({
          code,
          lines: stdout
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l)),
          stderr,
        });
      });
    });
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shop-'));
    t = await startTestApp();
    baseUrl = await t.baseUrl();
    const admin = await AdminClient.asPlatformAdmin(t);
    const author = (await admin.createAuthor()).client;
    projectId = (await author.createProject()).id;
    const type = {
      name: 'Month',
      kind: 'time',
      duration_seconds: 30 * 86400,
      device_limit: 1,
      features: [],
      price_cents: PRICE,
      agent_allowed: true,
    };
    typeId = (await author.post(`/admin/v1/projects/${projectId}/card-types`, type).expect(201)).body.id;
    const username = unique('agent');
    agentId = (
      await author
        .post('/admin/v1/agents', { username, password: 'agent-password-1', project_ids: [projectId], discount_percent: 0 })
        .expect(201)
    ).body.id;
    await author.post(`/admin/v1/agents/${agentId}/credits`, { amount_cents: 10 * PRICE, note: 'shop float' }).expect(200);
    agent = new AdminClient(t, await login(t, username, 'agent-password-1'));
    const made = await agent.post('/admin/v1/api-keys', {
      name: 'shop',
      scopes: ['orders:create'],
      project_ids: [projectId],
      allowed_cidrs: ['127.0.0.1/32', '::1/128'],
    });
    expect(made.status).toBe(201);
    key = made.body.key;
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('orders the cards of each payment once: a payment sent twice, or the whole file again, answers the same cards', async () => {
    const payments = [
      { order_id: 'P-1', count: 1 },
      { order_id: 'P-2', count: 2 },
      { order_id: 'P-1', count: 1 },
    ];
    const first = await shop(payments);
    expect(first.code).toBe(0);
    expect(first.lines.map((l) => [l.order_id, l.ok, l.replayed, l.cards?.length])).toEqual([
      ['P-1', true, false, 1],
      ['P-2', true, false, 2],
      ['P-1', true, true, 1],
    ]);
    expect(first.lines[2].cards).toEqual(first.lines[0].cards);
    expect(await balance()).toBe(7 * PRICE);
    const again = await shop(payments);
    expect(again.lines.map((l) => l.cards)).toEqual(first.lines.map((l) => l.cards));
    expect(again.lines.every((l) => l.replayed)).toBe(true);
    expect(await balance()).toBe(7 * PRICE);
    const [{ cards }] = await db().query(`SELECT count(*)::int AS cards FROM cards WHERE project_id = $1`, [projectId]);
    expect(cards).toBe(3);
  });

  it('reports another body for a used order number (409) and a short balance (402), and exits 1', async () => {
    const outcome = await shop([
      { order_id: 'P-1', count: 3 },
      { order_id: 'P-big', count: 50 },
      { order_id: 'P-3', count: 1 },
    ]);
    expect(outcome.code).toBe(1);
    expect(outcome.lines.map((l) => [l.order_id, l.ok, l.status, l.code])).toEqual([
      ['P-1', false, 409, 11302],
      ['P-big', false, 402, 11301],
      ['P-3', true, undefined, undefined],
    ]);
    expect(await balance()).toBe(6 * PRICE);
  });

  it('asks again after an answer lost on the way, and gets the same cards, charged once', async () => {
    let dropped = false;
    const proxy: Server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const upstream = await fetch(baseUrl + req.url, {
        method: req.method,
        headers: { authorization: String(req.headers.authorization), 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      });
      const body = await upstream.text();
      // The order is made; its answer never reaches the shop.
      if (!dropped) {
        dropped = true;
        req.socket.destroy();
        return;
      }
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const before = await balance();
      const outcome = await shop([{ order_id: 'P-lost', count: 2 }], `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
      expect(outcome.code).toBe(0);
      expect(outcome.lines).toEqual([expect.objectContaining({ order_id: 'P-lost', ok: true, replayed: true })]);
      expect(outcome.lines[0].cards).toHaveLength(2);
      expect(await balance()).toBe(before - 2 * PRICE);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('stops at once (exit 2) when the key is refused: from outside its addresses, or revoked', async () => {
    const elsewhere = await agent
      .post('/admin/v1/api-keys', { name: 'elsewhere', scopes: ['orders:create'], allowed_cidrs: ['203.0.113.0/24'] })
      .expect(201);
    const refused = await shop(
      [
        { order_id: 'P-x', count: 1 },
        { order_id: 'P-y', count: 1 },
      ],
      baseUrl,
      elsewhere.body.key,
    );
    expect(refused.code).toBe(2);
    expect(refused.lines).toEqual([expect.objectContaining({ order_id: 'P-x', ok: false, status: 403, code: 11016 })]);
    await agent.delete(`/admin/v1/api-keys/${elsewhere.body.id}`).expect(204);
    const revoked = await shop([{ order_id: 'P-x', count: 1 }], baseUrl, elsewhere.body.key);
    expect(revoked.code).toBe(2);
    expect(revoked.lines[0]).toMatchObject({ ok: false, status: 401 });
  });
});
