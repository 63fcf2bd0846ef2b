import type { AppConfig } from '../../config/app-config';
import { parseSentinels, type SentinelAddress } from '../../core/store/redis-connection';
import { fail, Finding, ok, safeMessage, warn } from './finding';

const ANSWER_MS = 2000;

/**
 * With Sentinel, each of REDIS_SENTINELS answers within 2 s and names a primary for
 * REDIS_SENTINEL_MASTER. None: the service cannot find Redis (fail). Some, or sentinels that name
 * different primaries: it works now, but a failover may not be agreed or followed (warn).
 */
export async function checkSentinels(config: AppConfig): Promise<Finding[]> {
  const master = config.REDIS_SENTINEL_MASTER!;
  const sentinels = parseSentinels(config.REDIS_SENTINELS!);
  const answers = await Promise.all(sentinels.map((sentinel) => askForMaster(sentinel, master)));
  const named = answers.filter((answer): answer is { primary: string } => 'primary' in answer);
  const silent = answers.flatMap((answer, i) => ('problem' in answer ? [`${address(sentinels[i])} ${answer.problem}`] : []));
  const primaries = [...new Set(named.map((answer) => answer.primary))];
  if (!named.length) {
    return [
      fail(
        'sentinel',
        `no sentinel names a primary for "${master}": ${silent.join('; ')}`,
        'check REDIS_SENTINELS, REDIS_SENTINEL_MASTER (the name in "sentinel monitor") and that the sentinels run',
      ),
    ];
  }
  if (silent.length || primaries.length > 1) {
    const disagree = primaries.length > 1 ? `; they name different primaries (${primaries.join(', ')})` : '';
    return [
      warn(
        'sentinel',
        `${named.length} of ${sentinels.length} sentinels name the primary of "${master}"${silent.length ? `: ${silent.join('; ')}` : ''}${disagree}`,
        'every sentinel in REDIS_SENTINELS should run and monitor the same primary, or a failover may not be agreed',
      ),
    ];
  }
  return [
    ok('sentinel', `${sentinels.length} of ${sentinels.length} sentinels name ${primaries[0]} as the primary of "${master}"`),
  ];
}

/** A plain connection to one sentinel (not Sentinel mode: that would hide which one answered). */
async function askForMaster(sentinel: SentinelAddress, master: string): Promise<{ primary: string } | { problem: string }> {
  const { default: Redis } = await import('ioredis');
  const client = new Redis({
    ...sentinel,
    lazyConnect: true,
    connectTimeout: ANSWER_MS,
    commandTimeout: ANSWER_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  client.on('error', () => undefined); // reported in the finding
  try {
    await client.connect();
    const reply = (await client.call('SENTINEL', 'get-master-addr-by-name', master)) as [string, string] | null;
    return reply ? { primary: `${reply[0]}:${reply[1]}` } : { problem: `monitors no master named "${master}"` };
  } catch (error) {
    return { problem: `does not answer: ${safeMessage(error)}` };
  } finally {
    client.disconnect();
  }
}

function address({ host, port }: SentinelAddress): string {
  return `${host}:${port}`;
}
