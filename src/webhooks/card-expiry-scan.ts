import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JsonLogger } from '../core/logging/json-logger';
import { DomainEvents } from '../events/domain-events';
import { DomainEventData } from '../events/domain-event-types';
import { MailOutbox } from '../mail/mail-outbox';
import { CardExpiryNoticesRepository } from './card-expiry-notices.repository';

/** decisions §20: a card is told about three days before it expires. */
export const EXPIRY_NOTICE_SECONDS = 3 * 86400;
// Any fixed number (not the login log maintenance's): instances sharing a database take turns.
const SCAN_LOCK_ID = 7_311_044;
const BATCH = 500;

/**
 * Emits `card.expiring_soon` once per card and expiry: periodically, one instance at a time (an
 * advisory lock), it marks the usable cards expiring within three days whose expiry has not been
 * announced and records their events in the same transaction, so a card is marked exactly when its
 * event is recorded. Only projects with an endpoint subscribed to the type are scanned: a card of a
 * project that subscribes later is still told, if its expiry is still ahead.
 *
 * With mail on (SMTP_URL), the same transaction marks the cards with a holder e-mail and enqueues
 * each one reminder (decisions §26), whatever the project's webhooks: a card is marked exactly when
 * its mail is written. Without it no card is marked, so a card still ahead of its expiry is
 * reminded once mail is set up.
 */
@Injectable()
export class CardExpiryScan implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly notices: CardExpiryNoticesRepository,
    private readonly events: DomainEvents,
    private readonly mail: MailOutbox,
    private readonly config: AppConfig,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    const pass = () =>
      void this.run().catch((error: unknown) => this.logger.entry('error', 'card expiry scan failed', { error: String(error) }));
    // A card is told at most this late after entering the window (10 minutes by default).
    this.timer = setInterval(pass, this.config.EXPIRY_SCAN_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** One scan: how many cards were announced or reminded, or null when another instance is scanning. */
  async run(): Promise<number | null> {
    let announced = 0;
    for (;;) {
      const batch = await this.batch();
      if (batch === null) return announced > 0 ? announced : null;
      announced += batch.marked;
      if (!batch.full) return announced;
    }
  }

  private async batch(): Promise<{ marked: number; full: boolean } | null> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      if (!(await this.notices.tryLock(runner.manager, SCAN_LOCK_ID))) {
        await runner.rollbackTransaction();
        return null;
      }
      const rows = await this.notices.markDue(runner.manager, EXPIRY_NOTICE_SECONDS, BATCH);
      const byProject = new Map<string, Array<DomainEventData['card.expiring_soon']>>();
      for (const row of rows) {
        const list = byProject.get(row.project_id) ?? [];
        list.push({ card_id: row.id, card_code: row.code, expires_at: new Date(row.expires_at).toISOString() });
        byProject.set(row.project_id, list);
      }
      for (const [projectId, data] of byProject)
        await this.events.emitMany(runner.manager, projectId, 'card.expiring_soon', data);
      const reminders = this.mail.enabled
        ? await this.notices.markRemindersDue(runner.manager, EXPIRY_NOTICE_SECONDS, BATCH)
        : [];
      for (const card of reminders) {
        const expiresAt = new Date(card.expires_at).toISOString();
        await this.mail.enqueue(runner.manager, {
          projectId: card.project_id,
          to: card.holder_email,
          template: 'card_expiring',
          data: { program_name: card.project_name, card_code: card.code, expires_at: expiresAt },
          dedupeKey: `card_expiring:${card.id}:${expiresAt}`,
        });
      }
      await runner.commitTransaction();
      return { marked: rows.length + reminders.length, full: rows.length === BATCH || reminders.length === BATCH };
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }
}
