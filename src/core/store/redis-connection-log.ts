import type Redis from 'ioredis';
import type { JsonLogger } from '../logging/json-logger';

/**
 * One JSON log line when Redis goes away and one when it is back. Without an `error` listener
 * ioredis prints every failed reconnect to stderr as plain text, which broke the JSON log an
 * operator's collector reads (twenty lines in a ten-second restart).
 */
export function logRedisConnection(client: Redis, logger: JsonLogger): void {
  let lost = false;
  client.on('error', (error: Error) => {
    if (lost) return;
    lost = true;
    logger.entry('error', 'Redis connection lost; retrying', { error: error.message });
  });
  client.on('ready', () => {
    if (!lost) return;
    lost = false;
    logger.entry('info', 'Redis connection restored');
  });
}
