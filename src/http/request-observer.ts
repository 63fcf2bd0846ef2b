import { Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppConfig } from '../config/app-config';
import { writeAccessLog } from './access-log';
import { JsonLogger } from '../core/logging/json-logger';
import { MetricsService } from './metrics/metrics.service';
import { describeFinished, FinishedRequest } from './finished-request';

export type FinishedListener = (req: IncomingMessage, done: FinishedRequest) => void;

/**
 * Watches every request to its end: one description of how it finished feeds both the metrics and
 * the access log, so they always agree.
 */
@Injectable()
export class RequestObserver {
  private readonly accessLog: boolean;
  private readonly listeners: FinishedListener[] = [];

  constructor(
    config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly logger: JsonLogger,
  ) {
    this.accessLog = config.ACCESS_LOG === 'on';
  }

  /** Called with every finished request (the request log, login-logs/request-log-writer.ts). */
  onFinished(listener: FinishedListener): void {
    this.listeners.push(listener);
  }

  /** Plain Node middleware, so it works on both adapters and sees guard failures and unmatched routes too. */
  readonly middleware = (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const done = describeFinished(req, res, started);
      this.metrics.observe(done);
      if (this.accessLog) writeAccessLog(this.logger, done);
      for (const listener of this.listeners) listener(req, done);
    });
    next();
  };
}
