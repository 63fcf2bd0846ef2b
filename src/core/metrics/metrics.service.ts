import { Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { familyOfPath, pathOf } from '../envelope/family';

/** Prometheus metrics of this app instance (own registry, so several apps can share a process). */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route family, method and outcome',
    labelNames: ['family', 'method', 'outcome', 'status'],
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route family and outcome',
    labelNames: ['family', 'outcome'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Plain Node middleware, so it works on both adapters and sees guard failures too. */
  readonly middleware = (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const path = pathOf(req.url ?? '/');
      const family = path.startsWith('/admin') || path.startsWith('/connect') || path.startsWith('/conncet') || path.startsWith('/api') ? familyOfPath(path) : 'ops';
      const outcome = res.statusCode >= 500 ? 'fault' : res.statusCode >= 400 ? 'rejected' : 'ok';
      this.requests.inc({ family, method: req.method ?? 'GET', outcome, status: String(res.statusCode) });
      this.latency.observe({ family, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };

  async render(): Promise<string> {
    return this.registry.metrics();
  }
}
