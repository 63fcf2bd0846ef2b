import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { MailAttempt } from './mail-attempt.entity';
import { MailMessage, MailStatus } from './mail-message.entity';
import { MailTemplate } from './mail-templates';

/** A mail to write into the outbox. */
export interface NewMail {
  projectId: string;
  to: string;
  template: MailTemplate;
  data: unknown;
  dedupeKey: string;
}

/** A mail claimed for one attempt, its `attempts` already counting it. */
export interface ClaimedMail {
  id: string;
  project_id: string;
  to_address: string;
  template: MailTemplate;
  data: unknown;
  attempts: number;
}

/** One attempt's outcome and the mail's next state. */
export interface MailAttemptRecord {
  mail: ClaimedMail;
  durationMs: number;
  smtpCode: number | null;
  error: string | null;
  status: MailStatus;
  /** Seconds until the next attempt; null: none. */
  wait: number | null;
}

/** The `mail_messages` outbox and its `mail_attempts`: the enqueue, the dispatcher's claim and record, the mail log. */
@Injectable()
export class MailMessagesRepository {
  constructor(@InjectRepository(MailMessage) private readonly rows: Repository<MailMessage>) {}

  /** Writes the mail inside the caller's transaction; null when its dedupe key is already in the project's outbox. */
  async enqueue(em: EntityManager, mail: NewMail): Promise<string | null> {
    const result = await em
      .createQueryBuilder()
      .insert()
      .into(MailMessage)
      .values({
        projectId: mail.projectId,
        toAddress: mail.to,
        template: mail.template,
        data: mail.data as object,
        dedupeKey: mail.dedupeKey,
      })
      .orIgnore()
      .returning(['id'])
      .execute();
    const row = result.raw as Array<{ id: string }>;
    return row[0]?.id ?? null;
  }

  /**
   * Claims up to `limit` due mails for one attempt each and pushes them `leaseSeconds` ahead, so an
   * instance that dies mid-send leaves them to another. Raw: FOR UPDATE SKIP LOCKED and UPDATE …
   * RETURNING in one statement, so instances sharing the database never claim the same attempt.
   */
  async claim(limit: number, leaseSeconds: number): Promise<ClaimedMail[]> {
    // An UPDATE … RETURNING answers [rows, affected count].
    const [rows] = (await this.rows.query(
      `UPDATE mail_messages m SET attempts = m.attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
       WHERE m.id IN (
         SELECT q.id FROM mail_messages q WHERE q.status = 'pending' AND q.next_attempt_at <= now()
         ORDER BY q.next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING m.id, m.project_id, m.to_address, m.template, m.data, m.attempts`,
      [limit, leaseSeconds],
    )) as [ClaimedMail[], number];
    return rows;
  }

  /** Records an attempt and the mail's state after it, together. */
  async record(r: MailAttemptRecord): Promise<void> {
    await this.rows.manager.transaction(async (em) => {
      await em.insert(MailAttempt, {
        mailId: r.mail.id,
        attempt: r.mail.attempts,
        durationMs: r.durationMs,
        smtpCode: r.smtpCode,
        error: r.error,
      });
      await em
        .createQueryBuilder()
        .update(MailMessage)
        .set({
          status: r.status,
          lastError: r.error,
          ...(r.status === 'sent' ? { sentAt: () => 'now()' } : {}),
          ...(r.wait !== null ? { nextAttemptAt: () => 'now() + make_interval(secs => :wait)' } : {}),
        })
        .where('id = :id', { id: r.mail.id })
        .setParameter('wait', r.wait ?? 0)
        .execute();
    });
  }

  countOfProject(projectId: string): Promise<number> {
    return this.rows.count({ where: { projectId } });
  }

  /** A page of the project's mails, newest first, with their attempts oldest first. */
  async pageOfProject(
    projectId: string,
    take: number,
    skip: number,
  ): Promise<Array<{ mail: MailMessage; attempts: MailAttempt[] }>> {
    return this.inOneSnapshot(async (em) =>
      this.withAttempts(
        em,
        await em.find(MailMessage, { where: { projectId }, order: { createdAt: 'DESC', id: 'ASC' }, take, skip }),
      ),
    );
  }

  async find(projectId: string, id: string): Promise<{ mail: MailMessage; attempts: MailAttempt[] } | undefined> {
    return this.inOneSnapshot(async (em) => {
      const mail = await em.findOneBy(MailMessage, { projectId, id });
      return mail ? (await this.withAttempts(em, [mail]))[0] : undefined;
    });
  }

  /** Makes a mail of this project due now, whatever its state; false when there is none. */
  async resend(projectId: string, id: string): Promise<boolean> {
    const { affected } = await this.rows.update(
      { id, projectId },
      { status: 'pending', nextAttemptAt: () => 'now()', sentAt: null },
    );
    return (affected ?? 0) > 0;
  }

  /**
   * The mails and their attempts as of one moment: read apart, an attempt recorded in between would
   * show in the log beside the mail's state from before it (an attempt with no error on a mail still
   * waiting for it).
   */
  private inOneSnapshot<T>(read: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.rows.manager.transaction('REPEATABLE READ', read);
  }

  private async withAttempts(
    em: EntityManager,
    mails: MailMessage[],
  ): Promise<Array<{ mail: MailMessage; attempts: MailAttempt[] }>> {
    const attempts = mails.length
      ? await em.find(MailAttempt, { where: { mailId: In(mails.map((m) => m.id)) }, order: { id: 'ASC' } })
      : [];
    return mails.map((mail) => ({ mail, attempts: attempts.filter((a) => a.mailId === mail.id) }));
  }
}
