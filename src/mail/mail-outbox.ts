import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { MailMessagesRepository } from './mail-messages.repository';
import { MailData, MailTemplate } from './mail-templates';

/** A mail another module owes: written in its transaction, sent after it commits. */
export interface MailToEnqueue<T extends MailTemplate> {
  projectId: string;
  to: string;
  template: T;
  data: MailData[T];
  /** The mail's name within the project (e.g. `checkout:<id>`): a second enqueue under it writes nothing. */
  dedupeKey: string;
}

/**
 * The mail outbox's door (decisions §26): a rule that owes a mail enqueues it inside its own
 * transaction, so the mail exists exactly when the change that owes it commits; the dispatcher
 * (mail-dispatcher.ts) sends it with retries. Without SMTP_URL nothing is written: the outbox does
 * not fill with mails no one can send, and callers go on as if mail were off.
 */
@Injectable()
export class MailOutbox {
  private readonly listeners: Array<() => void> = [];

  constructor(
    private readonly rows: MailMessagesRepository,
    private readonly config: AppConfig,
  ) {}

  /** Whether mails are written and sent (SMTP_URL is set). */
  get enabled(): boolean {
    return Boolean(this.config.SMTP_URL);
  }

  /** The new mail's id; null when mail is off or the dedupe key was used before in the project. */
  async enqueue<T extends MailTemplate>(em: EntityManager, mail: MailToEnqueue<T>): Promise<string | null> {
    if (!this.enabled) return null;
    const id = await this.rows.enqueue(em, mail);
    if (id) for (const listener of this.listeners) listener();
    return id;
  }

  /** Called after each enqueue (the dispatcher looks shortly after, once the caller has committed). */
  onEnqueued(listener: () => void): void {
    this.listeners.push(listener);
  }
}
