import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { AdminClient } from '../../support/admin-client';
import { insertCard } from '../../support/cards';
import { cardHeartbeat, sdkLogin } from '../../support/standard';
import { startTestApp, TestApp } from '../../support/test-app';

interface PgPool {
  options: { idleTimeoutMillis: number };
  totalCount: number;
  idleCount: number;
  connect: () => Promise<{ release: () => void }>;
}

/**
 * The hot statements (repeat login, session lookup) are prepared per connection on PostgreSQL and
 * unnamed on the embedded database, whose one session outlives the pool's connections. Either way
 * they must keep working when the pool closes idle connections and opens new ones.
 */
describe('hot statements across pool reconnections (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('logs in and heartbeats again after every idle connection was closed', async () => {
    const admin = await AdminClient.asPlatformAdmin(t);
    const project = await (await admin.createAuthor()).client.createProject();
    const card = await insertCard(t, project.id);
    const body = { app: project.program_id, card_key: card.code, machine_id: 'reconnect' };
    await sdkLogin(t, project.api_secret, body).expect(200);
    const token = (await sdkLogin(t, project.api_secret, body).expect(200)).body.data.session_token;
    expect((await cardHeartbeat(t, token, 'reconnect')).body.code).toBe(0);

    const pool = (t.app.get(DataSource).driver as unknown as { master: PgPool }).master;
    const idleTimeout = pool.options.idleTimeoutMillis;
    pool.options.idleTimeoutMillis = 20; // applies to connections released from now on
    try {
      await sdkLogin(t, project.api_secret, body).expect(200);
      // Connections idle since before keep the timeout they were released with (pg's 10 s; on
      // PostgreSQL the pool has several): take each idle one and give it back, under the short one.
      const idle = await Promise.all(Array.from({ length: pool.idleCount }, () => pool.connect()));
      for (const client of idle) client.release();
      const deadline = Date.now() + 15_000;
      while (pool.totalCount > 0 && Date.now() < deadline) await sleep(20);
      expect(pool.totalCount).toBe(0);
    } finally {
      pool.options.idleTimeoutMillis = idleTimeout;
    }

    const again = await sdkLogin(t, project.api_secret, body).expect(200);
    expect(again.body).toMatchObject({ code: 0, success: true });
    expect((await cardHeartbeat(t, token, 'reconnect')).body).toMatchObject({ code: 0, success: true });
  });
});
