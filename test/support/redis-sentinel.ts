import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort } from './service-process';

export const SENTINEL_MASTER = 'm';

export interface SentinelTopology {
  /** REDIS_SENTINELS for the service. */
  sentinels: string;
  primaryPort: number;
  replicaPort: number;
  /** What the sentinels name as the primary now (`host:port`), as the majority of those answering says. */
  primaryAddress(): Promise<string | null>;
  /** Waits until the replica has every write the primary has (before the primary is killed). */
  replicaCaughtUp(): Promise<void>;
  killPrimary(): void;
  /** A client on a node of the topology (closed by `stop`). */
  client(port: number): Redis;
  stop(): Promise<void>;
}

/** Whether Debian's Redis and Sentinel binaries are installed (.ci/services.sh installs them). */
export function sentinelBinariesInstalled(): boolean {
  return ['redis-server', 'redis-sentinel'].every((binary) => spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0);
}

/**
 * A primary, one replica and three sentinels (quorum 2) on free ports, with Debian's binaries and
 * config files in a temp dir: the failover a Redis Sentinel deployment goes through, in seconds.
 */
export async function startSentinelTopology(): Promise<SentinelTopology> {
  const dir = mkdtempSync(join(tmpdir(), 'ck-sentinel-'));
  const children: ChildProcess[] = [];
  const clients: Redis[] = [];
  const start = (binary: string, args: string[]) => {
    const child = spawn(binary, args, { stdio: 'ignore' });
    children.push(child);
    return child;
  };
  const server = (port: number, extra: string[]) =>
    start('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      ...extra,
    ]);
  const client = (port: number) => {
    const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    redis.on('error', () => undefined);
    clients.push(redis);
    return redis;
  };
  const [primaryPort, replicaPort, ...sentinelPorts] = await Promise.all([1, 2, 3, 4, 5].map(() => freePort()));
  const primary = server(primaryPort, []);
  server(replicaPort, ['--replicaof', '127.0.0.1', String(primaryPort)]);
  for (const port of sentinelPorts) {
    const file = join(dir, `sentinel-${port}.conf`);
    writeFileSync(
      file,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${SENTINEL_MASTER} 127.0.0.1 ${primaryPort} 2`,
        `sentinel down-after-milliseconds ${SENTINEL_MASTER} 1000`,
        `sentinel failover-timeout ${SENTINEL_MASTER} 5000`,
        '',
      ].join('\n'),
    );
    start('redis-sentinel', [file]);
  }
  const ask = async (port: number): Promise<string | null> => {
    const sentinel = client(port);
    try {
      await sentinel.connect();
      const reply = (await sentinel.call('SENTINEL', 'get-master-addr-by-name', SENTINEL_MASTER)) as string[] | null;
      return reply ? `${reply[0]}:${reply[1]}` : null;
    } catch {
      return null;
    } finally {
      sentinel.disconnect();
    }
  };
  const primaryAddress = async () => {
    const answers = (await Promise.all(sentinelPorts.map(ask))).filter((answer): answer is string => answer !== null);
    const counts = new Map<string, number>();
    for (const answer of answers) counts.set(answer, (counts.get(answer) ?? 0) + 1);
    const [best] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
    return best && best[1] >= 2 ? best[0] : null;
  };
  const replication = async (port: number) => {
    const node = client(port);
    try {
      await node.connect();
      return await node.info('replication');
    } finally {
      node.disconnect();
    }
  };
  const offset = (info: string, field: string) => Number(new RegExp(`${field}:(\\d+)`).exec(info)?.[1] ?? -1);
  const stop = async () => {
    // Only those still open: disconnecting an ended client again leaves timers that hold Jest open.
    for (const redis of clients) if (redis.status !== 'end') redis.disconnect();
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGKILL');
        await once(child, 'exit');
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Ready: the replica has synced and every sentinel sees the replica and the other sentinels.
    await until(async () => (await replication(replicaPort)).includes('master_link_status:up'), 'the replica syncs');
    await until(async () => {
      const states = await Promise.all(
        sentinelPorts.map(async (port) => {
          const sentinel = client(port);
          try {
            await sentinel.connect();
            const [master] = (await sentinel.call('SENTINEL', 'masters')) as string[][];
            const fields = new Map<string, string>();
            for (let i = 0; i + 1 < master.length; i += 2) fields.set(master[i], master[i + 1]);
            return Number(fields.get('num-slaves')) >= 1 && Number(fields.get('num-other-sentinels')) >= 2;
          } catch {
            return false;
          } finally {
            sentinel.disconnect();
          }
        }),
      );
      return states.every(Boolean);
    }, 'the sentinels find the replica and each other');
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    sentinels: sentinelPorts.map((port) => `127.0.0.1:${port}`).join(','),
    primaryPort,
    replicaPort,
    primaryAddress,
    replicaCaughtUp: async () => {
      const target = offset(await replication(primaryPort), 'master_repl_offset');
      await until(async () => offset(await replication(replicaPort), 'slave_repl_offset') >= target, 'the replica catches up');
    },
    killPrimary: () => primary.kill('SIGKILL'),
    client,
    stop,
  };
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`Redis Sentinel topology: timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
