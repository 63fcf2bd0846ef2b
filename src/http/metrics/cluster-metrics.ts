import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * One metrics view for all the workers of a clustered service (docs/operations.md, "Every core").
 *
 * GET /metrics reaches one worker; that worker asks the primary, which collects every serving
 * worker's registry as JSON over the cluster's IPC channels and merges them with prom-client's
 * `AggregatorRegistry.aggregate` (counters and histograms summed; gauges by the `aggregator` each
 * declares: backend-gauges.ts). The primary adds the series of the cluster itself: workers serving,
 * requests served per worker (labelled with its cluster id and pid), worker restarts.
 *
 * Our own small protocol rather than prom-client's `clusterMetrics()`: that one asks every worker
 * that is connected, including one still starting (which never answers, so the whole scrape fails
 * after 5 s), and reads the process-wide default registry, while each app here has its own.
 */

/** Set by the cluster primary in the environment of the workers it forks. */
export const CLUSTER_WORKER_ENV = 'CK_CLUSTER_WORKER';

/** Whether this process is a worker forked by our cluster primary (not pm2's or another one's). */
export function isClusterWorker(): boolean {
  return cluster.isWorker && process.env[CLUSTER_WORKER_ENV] === '1';
}

const ASK = 'ck:metrics:ask';
const ANSWER = 'ck:metrics:answer';
const COLLECT = 'ck:metrics:collect';
const COLLECTED = 'ck:metrics:collected';

/** How long the primary waits for one worker's registry; a worker that does not answer is left out of that scrape. */
const COLLECT_TIMEOUT_MS = 2000;
/** How long a worker waits for the primary's merged answer. */
const ASK_TIMEOUT_MS = 5000;

/** A registry's metrics as `getMetricsAsJSON()` gives them (what crosses the IPC channel). */
interface MetricJson {
  name: string;
  help: string;
  type: string;
  aggregator?: string;
  values: Array<{ labels: Record<string, string | number>; value: number; metricName?: string }>;
}
type Metrics = MetricJson[];

interface Message {
  type?: unknown;
  id?: unknown;
  metrics?: unknown;
  text?: unknown;
  error?: unknown;
}

const asMessage = (message: unknown): Message => (typeof message === 'object' && message !== null ? (message as Message) : {});

/**
 * Worker side: answers the primary's collection requests with `registry`, and asks the primary for
 * the merged view. `close()` stops answering (the app is closing).
 */
export class WorkerMetricsChannel {
  private readonly pending = new Map<
    number,
    { resolve: (text: string) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();
  private next = 0;
  private readonly onMessage = (raw: unknown): void => {
    const message = asMessage(raw);
    if (message.type === COLLECT && typeof message.id === 'number') {
      const id = message.id;
      this.registry.getMetricsAsJSON().then(
        (metrics) => process.send?.({ type: COLLECTED, id, metrics }),
        (error: unknown) => process.send?.({ type: COLLECTED, id, error: String(error) }),
      );
    } else if (message.type === ANSWER && typeof message.id === 'number') {
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      clearTimeout(waiter.timer);
      if (typeof message.text === 'string') waiter.resolve(message.text);
      else waiter.reject(new Error(`cluster metrics: ${String(message.error ?? 'no answer')}`));
    }
  };

  constructor(private readonly registry: Registry) {
    process.on('message', this.onMessage);
  }

  /** The metrics of every worker, merged by the primary. */
  render(): Promise<string> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error('cluster metrics: the primary did not answer'));
      }, ASK_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      if (!process.send?.({ type: ASK, id })) {
        // A worker whose channel to the primary is closed (the primary is gone) has no cluster view.
        if (!process.connected) {
          clearTimeout(timer);
          this.pending.delete(id);
          reject(new Error('cluster metrics: no channel to the primary'));
        }
      }
    });
  }

  close(): void {
    process.off('message', this.onMessage);
    for (const waiter of this.pending.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error('cluster metrics: the app is closing'));
    }
    this.pending.clear();
  }
}

/** What the primary knows of one worker, for the cluster's own series. */
export interface ServingWorker {
  worker: Worker;
}

/** The primary's own figures, added to every merged view. */
export interface ClusterFigures {
  /** Workers forked and serving (listening), and how many the configuration asks for. */
  serving: ServingWorker[];
  configured: number;
  /** Workers started again: after an unexpected exit (`crash`) or by a rolling restart (`rolling`). */
  restarts: { crash: number; rolling: number };
}

/**
 * Primary side: answers a worker's ASK with the merged metrics of every serving worker. Register
 * `handle` on `cluster.on('message')`.
 */
export class PrimaryMetricsAggregator {
  private next = 0;
  private readonly collecting = new Map<number, { worker: Worker; resolve: (metrics: Metrics | null) => void }>();

  constructor(private readonly figures: () => ClusterFigures) {}

  readonly handle = (worker: Worker, raw: unknown): void => {
    const message = asMessage(raw);
    if (message.type === ASK && typeof message.id === 'number') {
      const id = message.id;
      this.merged().then(
        (text) => sendIfConnected(worker, { type: ANSWER, id, text }),
        (error: unknown) => sendIfConnected(worker, { type: ANSWER, id, error: String(error) }),
      );
    } else if (message.type === COLLECTED && typeof message.id === 'number') {
      const entry = this.collecting.get(message.id);
      if (!entry || entry.worker !== worker) return;
      this.collecting.delete(message.id);
      entry.resolve(Array.isArray(message.metrics) ? (message.metrics as Metrics) : null);
    }
  };

  /** Every serving worker's registry, merged, with the cluster's own series. */
  async merged(): Promise<string> {
    const figures = this.figures();
    const collected = await Promise.all(
      figures.serving.map(async ({ worker }) => ({ worker, metrics: await this.collect(worker) })),
    );
    const answered = collected.filter((entry): entry is { worker: Worker; metrics: Metrics } => entry.metrics !== null);
    const own: Metrics = [
      {
        name: 'cluster_workers',
        help: 'Worker processes of the clustered service: configured (WORKERS), serving (listening), answered (whose metrics this scrape merged)',
        type: 'gauge',
        aggregator: 'sum',
        values: [
          { labels: { state: 'configured' }, value: figures.configured },
          { labels: { state: 'serving' }, value: figures.serving.length },
          { labels: { state: 'answered' }, value: answered.length },
        ],
      },
      {
        name: 'cluster_worker_http_requests_total',
        help: 'HTTP requests served by each worker now serving (the sum of its http_requests_total), by cluster worker id and pid',
        type: 'counter',
        aggregator: 'sum',
        values: answered.map(({ worker, metrics }) => ({
          labels: { worker: String(worker.id), pid: String(worker.process.pid ?? '') },
          value: requestsOf(metrics),
        })),
      },
      {
        name: 'cluster_worker_restarts_total',
        help: 'Workers started by the primary after the first ones, by reason: crash (an unexpected exit, replaced) or rolling (SIGHUP)',
        type: 'counter',
        aggregator: 'sum',
        values: [
          { labels: { reason: 'crash' }, value: figures.restarts.crash },
          { labels: { reason: 'rolling' }, value: figures.restarts.rolling },
        ],
      },
    ];
    return AggregatorRegistry.aggregate([...answered.map((entry) => entry.metrics), own]).metrics();
  }

  private collect(worker: Worker): Promise<Metrics | null> {
    const id = this.next++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.collecting.delete(id);
        resolve(null);
      }, COLLECT_TIMEOUT_MS);
      this.collecting.set(id, {
        worker,
        resolve: (metrics) => {
          clearTimeout(timer);
          resolve(metrics);
        },
      });
      if (!sendIfConnected(worker, { type: COLLECT, id })) {
        clearTimeout(timer);
        this.collecting.delete(id);
        resolve(null);
      }
    });
  }
}

function sendIfConnected(worker: Worker, message: object): boolean {
  if (!worker.isConnected()) return false;
  try {
    return worker.send(message);
  } catch {
    return false;
  }
}

function requestsOf(metrics: Metrics): number {
  const requests = metrics.find((metric) => metric.name === 'http_requests_total');
  return requests ? requests.values.reduce((sum, value) => sum + value.value, 0) : 0;
}
