import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { SecretBox } from '../core/crypto/secret-box';
import { JsonLogger } from '../core/logging/json-logger';
import { MetricsService } from '../http/metrics/metrics.service';
import { DomainEvents } from '../events/domain-events';
import { PlatformService } from '../platform/platform.service';
import { privateKeyFromDer, signEd25519, SigningSecret } from '../signing/ed25519';
import { SigningKeysService } from '../signing/signing-keys.service';
import { deliveryBody, robotAccepted, WebhookEventBody } from './webhook-formats';
import { delayAfter, retryDelays } from '../common/retry-schedule';
import { SerialRounds } from '../common/serial-rounds';
import { DISABLE_AFTER_SECONDS } from './webhook-schedule';
import { send, SendResult } from './webhook-sender';
import { InFlight } from './webhook-in-flight';
import { ClaimedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

export const WEBHOOK_HEADERS = {
  id: 'X-Svc-Webhook-Id',
  timestamp: 'X-Svc-Webhook-Timestamp',
  key: 'X-Svc-Webhook-Key',
  signature: 'X-Svc-Webhook-Signature',
} as const;

/** decisions §20: the bytes a delivery's signature covers. */
export function webhookSigningInput(id: string, timestamp: number, body: string): Buffer {
  return Buffer.from(`svc-webhook-v1\n${id}\n${timestamp}\n${body}`, 'utf8');
}

/** A claimed delivery is not due again for this long (longer than one attempt's 10 s): an instance that dies mid-send leaves it to another. */
const LEASE_SECONDS = 60;

/**
 * Sends due deliveries from a pool of slots (WEBHOOK_CONCURRENCY per instance): whenever slots are
 * free it claims that many in one statement (FOR UPDATE SKIP LOCKED, then the lease pushes them
 * ahead), so instances sharing the database never send the same attempt twice, and each attempt
 * gives its slot back the moment it ends. A claim takes no more for an endpoint or a project than
 * its share (WEBHOOK_PER_ENDPOINT, WEBHOOK_PER_PROJECT) less what this instance already has in
 * flight for it: one tenant's slow or dead endpoints hold a few slots while everyone else's
 * deliveries go on. Each attempt is recorded with the next try or the end, and the endpoint's
 * health, in one statement. At least once: a delivery whose attempt was sent but not recorded (a
 * crash) is sent again after the lease; receivers deduplicate by X-Svc-Webhook-Id.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private readonly rounds = new SerialRounds(
    () => this.round(),
    (error) => this.logger.entry('error', 'webhook round failed', { error: error.message }),
  );
  private readonly delays: number[];
  private readonly keys = new Map<string, SigningSecret>();
  private readonly inFlight = new InFlight();

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly config: AppConfig,
    private readonly events: DomainEvents,
    private readonly signingKeys: SigningKeysService,
    private readonly box: SecretBox,
    private readonly platform: PlatformService,
    private readonly logger: JsonLogger,
    private readonly metrics: MetricsService,
  ) {
    this.delays = retryDelays(config.WEBHOOK_RETRY_DELAYS);
  }

  onApplicationBootstrap(): void {
    // An event recorded here is usually committed a moment later: look shortly after, and poll for other instances' events.
    this.events.onRecorded(() => setTimeout(() => this.kick(), 50).unref());
    this.timer = setInterval(() => this.kick(), this.config.WEBHOOK_POLL_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.rounds.stop();
    await this.inFlight.drained();
  }

  /** Runs a round now, or once more after the current one. */
  kick(): void {
    this.rounds.kick();
  }

  /** Claims for the free slots until none are free or nothing more is due; the attempts run on their own. */
  private async round(): Promise<void> {
    for (;;) {
      const free = this.config.WEBHOOK_CONCURRENCY - this.inFlight.size;
      if (this.rounds.isStopped || free <= 0) return;
      const claimed = await this.claim(free);
      if (claimed.length === 0) return;
      const allowPrivate = (await this.platform.getSettings()).webhook_private_targets;
      for (const delivery of claimed) {
        const attempt = this.attempt(delivery, allowPrivate).catch((error: Error) =>
          this.logger.entry('error', 'webhook attempt failed', { delivery_id: delivery.id, error: error.message }),
        );
        this.inFlight.add(delivery, attempt, () => this.kick());
      }
      if (claimed.length < free) return;
    }
  }

  private claim(limit: number): Promise<ClaimedDelivery[]> {
    return this.deliveries.claim({
      limit,
      leaseSeconds: LEASE_SECONDS,
      busyEndpoints: this.inFlight.byEndpoint(),
      busyProjects: this.inFlight.byProject(),
      perEndpoint: this.config.WEBHOOK_PER_ENDPOINT,
      perProject: this.config.WEBHOOK_PER_PROJECT,
    });
  }

  private async attempt(delivery: ClaimedDelivery, allowPrivate: boolean): Promise<void> {
    const event: WebhookEventBody = {
      id: delivery.event_id,
      type: delivery.type,
      created_at: new Date(delivery.created_at).toISOString(),
      project_id: delivery.project_id,
      data: delivery.data,
    };
    const body = deliveryBody(delivery.format, delivery.url, delivery.project_name, event);
    const timestamp = Math.floor(Date.now() / 1000);
    let result: SendResult;
    try {
      const key = await this.signingKeys.activeKey(delivery.project_id);
      const signature = signEd25519(this.secret(key.kid, key.privateKeyEnc), webhookSigningInput(event.id, timestamp, body));
      result = await send(
        delivery.url,
        body,
        {
          [WEBHOOK_HEADERS.id]: event.id,
          [WEBHOOK_HEADERS.timestamp]: String(timestamp),
          [WEBHOOK_HEADERS.key]: key.kid,
          [WEBHOOK_HEADERS.signature]: signature,
        },
        allowPrivate,
      );
    } catch (error) {
      result = { status: null, durationMs: 0, excerpt: '', error: (error as Error).message.slice(0, 200) };
    }
    const ok =
      result.status !== null && result.status >= 200 && result.status < 300 && robotAccepted(delivery.format, result.excerpt);
    await this.record(delivery, result, ok);
  }

  private async record(delivery: ClaimedDelivery, result: SendResult, ok: boolean): Promise<void> {
    const wait = ok ? null : delayAfter(delivery.attempts, this.delays);
    const status = ok ? 'delivered' : wait === null ? 'failed' : 'pending';
    const row = await this.deliveries.record({
      delivery,
      httpStatus: result.status,
      durationMs: result.durationMs,
      excerpt: result.excerpt,
      error: result.error,
      status,
      ok,
      wait,
      disableAfterSeconds: DISABLE_AFTER_SECONDS,
    });
    const disabled = Boolean(row && !row.enabled && row.disabled_reason === 'failing');
    this.metrics.webhookAttempted(ok ? 'delivered' : wait === null ? 'failed' : 'retry', disabled);
    if (disabled) {
      this.logger.entry('warn', 'webhook endpoint disabled after failing for 3 days', {
        endpoint_id: delivery.endpoint_id,
        project_id: delivery.project_id,
      });
    }
  }

  private secret(kid: string, privateKeyEnc: string): SigningSecret {
    let secret = this.keys.get(kid);
    if (!secret) {
      secret = privateKeyFromDer(this.box.decrypt(privateKeyEnc));
      this.keys.set(kid, secret);
    }
    return secret;
  }
}
