import Redis from 'ioredis';
import { createServer } from 'node:net';
import type { JsonLogger } from '../logging/json-logger';
import { logRedisConnection } from './redis-connection-log';

describe('logRedisConnection', () => {
  const entries: Array<[string, string]> = [];
  const logger = { entry: (level: string, msg: string) => entries.push([level, msg]) } as unknown as JsonLogger;
  beforeEach(() => (entries.length = 0));

  it('writes one JSON line for an outage, however many reconnects fail, and nothing to stderr', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve)); // nothing listens there now
    const printed = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 20, maxRetriesPerRequest: 0 });
    logRedisConnection(client, logger);
    let retries = 0;
    client.on('reconnecting', () => retries++); // not an error listener: ours must be the only one
    client.connect().catch(() => undefined);
    while (retries < 4) await new Promise((resolve) => setTimeout(resolve, 20));
    client.disconnect();
    expect(entries).toEqual([['error', 'Redis connection lost; retrying']]);
    expect(printed).not.toHaveBeenCalled();
    printed.mockRestore();
  });

  (process.env.REDIS_URL ? it : it.skip)('says when the connection is back', async () => {
    const client = new Redis(process.env.REDIS_URL!, { retryStrategy: () => 20 });
    logRedisConnection(client, logger);
    await new Promise((resolve) => client.once('ready', resolve));
    client.stream.destroy(new Error('cut'));
    while (entries.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(entries).toEqual([
      ['error', 'Redis connection lost; retrying'],
      ['info', 'Redis connection restored'],
    ]);
    await client.quit();
  });
});
