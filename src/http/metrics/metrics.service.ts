import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ErrorCode } from '../../core/errors/error-code';
import { FinishedRequest } from '../finished-request';
import { isClusterWorker, WorkerMetricsChannel } from './cluster-metrics';

/** Which path of the card-login rule wrote the login-log row (card-login.service.ts). */
export type LoginLogWritePath = 'fast' | 'locked' | 'refusal';

/** How a webhook delivery attempt ended: delivered, failed with a retry scheduled, or failed for good. */
export type WebhookAttemptOutcome = 'delivered' | 'retry' | 'failed';

/**
 * Prometheus metrics of this app instance (own registry, so several apps can share a process):
 * HTTP traffic, and the business series an operator watches (docs/operations.md). The gauges that
 * probe the database and Redis are in backend-gauges.ts. In a worker of a clustered service,
 * `render` answers the merged metrics of every worker (cluster-metrics.ts).
 */
@Injectable()
export class MetricsService implements OnModuleDestroy {
  readonly registry = new Registry();
  private readonly cluster = isClusterWorker() ? new WorkerMetricsChannel(this.registry) : null;
  private readonly requests = this.counter(
    'http_requests_total',
    'HTTP requests by route family, method and outcome (ok, refused: a business refusal answered 200, rejected: 4xx, fault: 5xx)',
    ['family', 'method', 'outcome', 'status'],
  );
  private readonly latency = this.histogram(
    'http_request_duration_seconds',
    'HTTP request latency by route family and outcome',
    ['family', 'outcome'],
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  );
  private readonly cardLogins = this.counter(
    'card_logins_total',
    'Card login attempts (one per login-log row) by client family and the code answered (0 or 1 success, else the catalog code)',
    ['family', 'result'],
  );
  private readonly refusals = this.counter(
    'refusals_total',
    'Failure answers below HTTP 500 by route family and catalog code name',
    ['family', 'reason'],
  );
  private readonly quotaRefusals = this.counter(
    'quota_refusals_total',
    'Requests refused because the daily quota of an interface is used up, by client family and interface',
    ['family', 'interface'],
  );
  private readonly nonceReplays = this.counter(
    'nonce_replays_total',
    'Requests refused because their nonce was already used, by check (hmac: V3 and SDK headers, connect: the Connect form)',
    ['check'],
  );
  private readonly loginLogWrites = this.histogram(
    'login_log_write_duration_seconds',
    'Time of the card-login write (card update and login-log row) by path: fast (one statement), locked (transaction), refusal (gate refusal row)',
    ['path'],
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
  );

  private readonly webhookAttempts = this.counter(
    'webhook_attempts_total',
    'Webhook delivery attempts by outcome: delivered (answered 2xx and accepted), retry (failed, another attempt is scheduled), failed (failed, no attempt left)',
    ['outcome'],
  );
  private readonly webhookEndpointsDisabled = this.counter(
    'webhook_endpoints_disabled_total',
    'Webhook endpoints turned off after failing for 3 days',
    [],
  );

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Called once per finished request (request-observer.ts). */
  observe(done: FinishedRequest): void {
    const { family, outcome } = done;
    this.requests.inc({ family, method: done.method, outcome, status: done.status });
    this.latency.observe({ family, outcome }, done.seconds);
    if (done.cardLoginFamily) this.cardLogins.inc({ family: done.cardLoginFamily, result: done.code ?? 'none' });
    if (!done.failed || done.code === undefined || outcome === 'fault') return;
    this.refusals.inc({ family, reason: ErrorCode[done.code] ?? done.code });
    // Only the HMAC guard (standard family) and the Connect guard claim nonces.
    if (done.code === ErrorCode.NONCE_REPLAYED) this.nonceReplays.inc({ check: family === 'connect' ? 'connect' : 'hmac' });
  }

  quotaRefused(family: string, interfaceName: string): void {
    this.quotaRefusals.inc({ family, interface: interfaceName });
  }

  /** `started` is `process.hrtime.bigint()` taken before the write. */
  loginLogWritten(path: LoginLogWritePath, started: bigint): void {
    this.loginLogWrites.observe({ path }, Number(process.hrtime.bigint() - started) / 1e9);
  }

  /** One webhook delivery attempt recorded (webhook-dispatcher.ts), and whether it turned its endpoint off. */
  webhookAttempted(outcome: WebhookAttemptOutcome, endpointDisabled = false): void {
    this.webhookAttempts.inc({ outcome });
    if (endpointDisabled) this.webhookEndpointsDisabled.inc();
  }

  /** This app's metrics; in a worker of a clustered service, those of every worker, merged by the primary. */
  async render(): Promise<string> {
    return this.cluster ? this.cluster.render() : this.registry.metrics();
  }

  onModuleDestroy(): void {
    this.cluster?.close();
  }

  private counter<L extends string>(name: string, help: string, labelNames: L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  private histogram<L extends string>(name: string, help: string, labelNames: L[], buckets: number[]): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }
}
