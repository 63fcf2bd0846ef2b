import { ApiProperty } from '@nestjs/swagger';
import { MailAttempt } from './mail-attempt.entity';
import { MailMessage, MailStatus } from './mail-message.entity';
import { MAIL_TEMPLATES, MailTemplate } from './mail-templates';

const INSTANT = { type: String, format: 'date-time' } as const;

export class MailAttemptView {
  @ApiProperty({ type: 'integer' }) attempt!: number;
  @ApiProperty(INSTANT) attempted_at!: string;
  @ApiProperty({ type: 'integer' }) duration_ms!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: "the SMTP server's reply code; null when none came" })
  smtp_code!: number | null;
  @ApiProperty({ type: String, nullable: true, description: "the server's refusal, or why no answer came" })
  error!: string | null;
}

/** One mail of the project's mail log (decisions §26): where it went, which mail, and how its attempts went. */
export class MailView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'the recipient' }) to!: string;
  @ApiProperty({ enum: MAIL_TEMPLATES }) template!: MailTemplate;
  @ApiProperty({ enum: ['pending', 'sent', 'failed'], description: 'failed: refused for good, or 15 attempts used' })
  status!: MailStatus;
  @ApiProperty({ type: 'integer' }) attempts!: number;
  @ApiProperty({ type: String, nullable: true, description: "the last attempt's error; null after a success" })
  last_error!: string | null;
  @ApiProperty({ ...INSTANT, nullable: true, description: 'when a pending mail is tried next' }) next_attempt_at!: string | null;
  @ApiProperty({ ...INSTANT, nullable: true }) sent_at!: string | null;
  @ApiProperty(INSTANT) created_at!: string;
  @ApiProperty({ type: [MailAttemptView], description: 'every attempt, oldest first' }) attempt_log!: MailAttemptView[];
}

function iso(value: Date): string {
  return new Date(value).toISOString();
}

export function toMailView(mail: MailMessage, attempts: MailAttempt[]): MailView {
  return {
    id: mail.id,
    to: mail.toAddress,
    template: mail.template,
    status: mail.status,
    attempts: mail.attempts,
    last_error: mail.lastError,
    next_attempt_at: mail.status === 'pending' ? iso(mail.nextAttemptAt) : null,
    sent_at: mail.sentAt ? iso(mail.sentAt) : null,
    created_at: iso(mail.createdAt),
    attempt_log: attempts.map((a) => ({
      attempt: a.attempt,
      attempted_at: iso(a.attemptedAt),
      duration_ms: a.durationMs,
      smtp_code: a.smtpCode,
      error: a.error,
    })),
  };
}
