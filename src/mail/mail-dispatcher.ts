import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { delayAfter, retryDelays } from '../common/retry-schedule';
import { SerialRounds } from '../common/serial-rounds';
import { AppConfig } from '../config/app-config';
import { JsonLogger } from '../core/logging/json-logger';
import { ClaimedMail, MailMessagesRepository } from './mail-messages.repository';
import { MailOutbox } from './mail-outbox';
import { MailData, MailTemplate, renderMail } from './mail-templates';
import { SmtpOutcome, SmtpTransport } from './smtp-transport';

/** Mails sent at once by each instance: one SMTP relay, which limits senders itself. */
const SLOTS = 4;
/** A claimed mail is not due again for this long (longer than one attempt's timeouts): an instance that dies mid-send leaves it to another. */
const LEASE_SECONDS = 120;

/**
 * Sends due mails through SMTP_URL, a few at a time: each claim takes due mails with FOR UPDATE
 * SKIP LOCKED and pushes them ahead by a lease, so instances sharing the database never make the
 * same attempt. A refusal that may pass (a 4xx reply, a connection refused, closed or timed out) is
 * tried again on the webhooks' schedule (common/retry-schedule.ts); a 5xx reply to the mail is
 * final. Each attempt is recorded with the server's reply. At least once: a mail sent but not
 * recorded (a crash) is sent again after the lease, with the same Message-ID.
 */
@Injectable()
export class MailDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private readonly rounds = new SerialRounds(
    () => this.round(),
    (error) => this.logger.entry('error', 'mail round failed', { error: error.message }),
  );
  private readonly delays: number[];
  private transport?: SmtpTransport;

  constructor(
    private readonly mails: MailMessagesRepository,
    private readonly outbox: MailOutbox,
    private readonly config: AppConfig,
    private readonly logger: JsonLogger,
  ) {
    this.delays = retryDelays(config.MAIL_RETRY_DELAYS);
  }

  onApplicationBootstrap(): void {
    if (!this.config.SMTP_URL || !this.config.MAIL_FROM) return;
    this.transport = new SmtpTransport(this.config.SMTP_URL, this.config.MAIL_FROM);
    // A mail enqueued here is usually committed a moment later: look shortly after, and poll for other instances' mails.
    this.outbox.onEnqueued(() => setTimeout(() => this.kick(), 50).unref());
    this.timer = setInterval(() => this.kick(), this.config.MAIL_POLL_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.rounds.stop();
    this.transport?.close();
  }

  /** Runs a round now, or once more after the current one. */
  kick(): void {
    if (!this.transport) return;
    this.rounds.kick();
  }

  /** Claims and sends until nothing more is due. */
  private async round(): Promise<void> {
    for (;;) {
      if (this.rounds.isStopped) return;
      const claimed = await this.mails.claim(SLOTS, LEASE_SECONDS);
      await Promise.all(claimed.map((mail) => this.attempt(mail)));
      if (claimed.length < SLOTS) return;
    }
  }

  private async attempt(mail: ClaimedMail): Promise<void> {
    const started = Date.now();
    let outcome: SmtpOutcome;
    try {
      const rendered = renderMail(mail.template, mail.data as MailData[MailTemplate], this.config.APP_TIMEZONE);
      outcome = await this.transport!.send({ messageId: `<${mail.id}@cardkey.mail>`, to: mail.to_address, ...rendered });
    } catch (error) {
      outcome = { ok: false, code: null, error: (error as Error).message.slice(0, 300), permanent: false };
    }
    const wait = outcome.ok || outcome.permanent ? null : delayAfter(mail.attempts, this.delays);
    const status = outcome.ok ? 'sent' : wait === null ? 'failed' : 'pending';
    await this.mails.record({
      mail,
      durationMs: Date.now() - started,
      smtpCode: outcome.code,
      error: outcome.error,
      status,
      wait,
    });
    if (status === 'failed') {
      this.logger.entry('warn', 'mail given up', {
        mail_id: mail.id,
        project_id: mail.project_id,
        attempts: mail.attempts,
        error: outcome.error,
      });
    }
  }
}
