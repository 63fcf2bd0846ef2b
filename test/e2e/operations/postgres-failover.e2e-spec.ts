import { setTimeout as sleep } from 'node:timers/promises';
import { makeSynchronous, createAppTemplate, databaseOf, PgCluster, startPrimary, startStandby } from '../../support/pg-clusters';
import { PgBouncer, startPgBouncer } from '../../support/pgbouncer';
import { sdkLogin } from '../../support/standard';
import { acquireStores, PG_TEMPLATE_ENV, withPg } from '../../support/stores';
import { buildWorld, World } from '../../support/world';

const STREAMS = 4;
const BEFORE_STOP_MS = 1_500;
/** How long the primary stays down before the standby is promoted (an operator or Patroni deciding). */
const DOWN_MS = 1_000;
const RECOVERY_LIMIT_MS = 30_000;
/** Successes in a row after the re-pointing that count as recovered. */
const RECOVERED_AFTER = 20;
const SERVER_LOGIN_RETRY_S = 1;

interface Answer {
  sentAt: number;
  at: number;
  status: number;
  code: number | undefined;
  errorId: string | undefined;
  requestId: string;
}

/**
 * PostgreSQL failover behind PgBouncer (decisions §25): a primary with a synchronous standby, the
 * service through the pooler, a stream of card logins; the primary dies (immediate stop), the
 * standby is promoted and the pooler re-pointed. The service recovers without a restart, every
 * answer in between is a SYSTEM_ERROR with an error_id (never a wrong success), and every login
 * answered as a success has its login_logs row on the new primary (none lost).
 */
(process.env.DATABASE_URL ? describe : describe.skip)('PostgreSQL failover behind PgBouncer (e2e)', () => {
  let primary: PgCluster | undefined;
  let standby: PgCluster | undefined;
  let pooler: PgBouncer | undefined;
  let world: World | undefined;
  let appDatabase: string;

  beforeAll(async () => {
    primary = await startPrimary();
    await createAppTemplate(primary, process.env[PG_TEMPLATE_ENV]!);
    standby = await startStandby(primary, 'failover1');
    await makeSynchronous(primary, 'failover1');
    // PgBouncer's default server_login_retry (15 s) holds a failover up: a failed server login
    // refuses the pool that long, re-pointed or not. The recipe lowers it (docs/operations.md, "Topologies").
    pooler = await startPgBouncer(primary.url('postgres', 'app', 'app'), 10, { server_login_retry: SERVER_LOGIN_RETRY_S });
    const stores = await acquireStores({
      DATABASE_URL: pooler.through(primary.url('postgres', 'app', 'app')),
      REDIS_URL: process.env.REDIS_URL,
    });
    appDatabase = databaseOf(stores.env.DATABASE_URL);
    world = await buildWorld({ env: { DATABASE_PREPARED_STATEMENTS: 'false' }, app: { stores }, cards: STREAMS });
  }, 60_000);

  afterAll(async () => {
    // The app's database goes with the clusters; dropping it through the pooler may race its own connections.
    await world?.close().catch(() => undefined);
    await pooler?.stop();
    await standby?.remove();
    await primary?.remove();
  }, 30_000);

  it('recovers without a restart once the standby is promoted and the pooler re-pointed; no acknowledged login lost', async () => {
    const { t, project, cards } = world!;
    const answers: Answer[] = [];
    let running = true;
    const stream = async (index: number) => {
      while (running) {
        const sentAt = Date.now();
        const res = await sdkLogin(t, project.api_secret, {
          app: project.program_id,
          card_key: cards[index].code,
          machine_id: `failover-${index}`,
        });
        answers.push({
          sentAt,
          at: Date.now(),
          status: res.status,
          code: res.body?.code,
          errorId: res.body?.error_id,
          requestId: res.headers['x-request-id'] as string,
        });
        if (res.body?.code !== 0) await sleep(50);
      }
    };
    const streams = Array.from({ length: STREAMS }, (_, i) => stream(i));
    try {
      await sleep(BEFORE_STOP_MS);
      const stoppedAt = Date.now();
      await primary!.stop('immediate');
      await sleep(DOWN_MS);
      await standby!.promote();
      await pooler!.repoint('127.0.0.1', standby!.port);
      const repointedAt = Date.now();
      const deadline = repointedAt + RECOVERY_LIMIT_MS;
      const recoveredAt = () => {
        const after = answers.filter((a) => a.sentAt >= repointedAt);
        const firstOfRun = after.findIndex(
          (_, i) =>
            after.slice(i, i + RECOVERED_AFTER).length === RECOVERED_AFTER &&
            after.slice(i, i + RECOVERED_AFTER).every((a) => a.code === 0),
        );
        return firstOfRun === -1 ? undefined : after[firstOfRun].at;
      };
      while (recoveredAt() === undefined && Date.now() < deadline) await sleep(100);
      running = false;
      await Promise.all(streams);

      const recovered = recoveredAt();
      const before = answers.filter((a) => a.at < stoppedAt);
      const between = answers.filter((a) => a.at >= stoppedAt && (recovered === undefined || a.at < recovered));
      const faults = answers.filter((a) => a.code !== 0);
      const successes = answers.filter((a) => a.code === 0);
      process.stdout.write(
        `postgres failover: ${before.length} logins before the stop; ${between.length} answers between stop and recovery, ` +
          `${between.filter((a) => a.code !== 0).length} of them faults; promoted and re-pointed ${repointedAt - stoppedAt} ms after the stop; ` +
          `recovered ${recovered === undefined ? 'never' : `${recovered - repointedAt} ms after the re-pointing (${recovered - stoppedAt} ms after the stop)`}; ` +
          `${successes.length} successes in all\n`,
      );

      expect(recovered).toBeDefined();
      expect(before.filter((a) => a.code === 0).length).toBeGreaterThan(0);
      // A fault is a SYSTEM_ERROR that names its log line; nothing else.
      expect(faults.filter((a) => a.code !== 50000 || !a.errorId).map((a) => ({ status: a.status, code: a.code }))).toEqual([]);
      // Every success, before and after the failover, is on the new primary (synchronous replication).
      const ids = successes.map((a) => a.requestId);
      const found = await withPg(standby!.url(appDatabase), async (db) =>
        (
          (await db.query('SELECT request_id FROM login_logs WHERE request_id = ANY($1::text[])', [ids])) as Array<{
            request_id: string;
          }>
        ).map((r) => r.request_id),
      );
      expect(ids.filter((id) => !found.includes(id))).toEqual([]);
    } finally {
      running = false;
      await Promise.all(streams);
    }
  }, 60_000);
});
