'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload: require() patches the drivers before the service loads them */
// Preloaded into the benchmarked service (`node -r bench/count-round-trips.cjs dist/src/main.js`,
// started by bench/service-process.ts with an IPC channel): counts the PostgreSQL queries sent through `pg`
// (TypeORM's driver on both runtimes) and the commands sent to Redis, and answers the
// message 'bench:round-trips' with the counts, so the bench can measure the round trips of one
// login. Costs one increment per call. (Not a signal: Nest's shutdown hooks own SIGUSR2.)
const counts = { pg: 0, redis: 0 };

const pg = require('pg');
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  counts.pg += 1;
  return query.apply(this, args);
};

// Redis is reached by one client, ioredis: the shared store (nonces, quotas, rate limits,
// revocations) and the cache alike.
try {
  const ioredis = require('ioredis');
  const Redis = ioredis.default ?? ioredis;
  const sendCommand = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function countedCommand(...args) {
    counts.redis += 1;
    return sendCommand.apply(this, args);
  };
} catch {
  // no ioredis: nothing to count
}

// A clustered service (WORKERS > 1) preloads this into the primary and every worker (they inherit
// the flags). The primary sends no query: it asks the worker of the lowest id and passes its answer
// on, so the counts of a clustered service are worker 1's only (the bench says so).
const cluster = require('node:cluster');
if (cluster.isPrimary) {
  cluster.on('message', (_worker, message) => {
    if (message && typeof message === 'object' && message.bench_round_trips) process.send?.(message);
  });
}

if (process.send) {
  process.on('message', (message) => {
    if (message !== 'bench:round-trips') return;
    const workers = cluster.isPrimary ? Object.values(cluster.workers ?? {}).filter((w) => w?.isConnected()) : [];
    if (workers.length) workers.sort((a, b) => a.id - b.id)[0].send('bench:round-trips');
    else process.send({ bench_round_trips: { ...counts } });
  });
  // The channel must not keep the service alive when it shuts down.
  process.channel?.unref();
}
