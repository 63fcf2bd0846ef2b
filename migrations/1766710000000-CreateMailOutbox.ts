import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * E-mail (decisions §26): a card's holder e-mail, and the mail outbox with its delivery log. A rule
 * that owes a mail writes it in its own transaction (`mail_messages`, one row per mail, unique by
 * its dedupe key within the project); every instance claims due mails with FOR UPDATE SKIP LOCKED,
 * so each attempt is made by one of them; `mail_attempts` keeps each try and its SMTP answer.
 * `mail_reminder_for` is the expiry a card's holder was reminded of, as `expiry_notice_for` is the
 * webhook's: an extended card is reminded of its new expiry, never twice of the same one.
 */
export class CreateMailOutbox1766710000000 implements MigrationInterface {
  name = 'CreateMailOutbox1766710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE cards ADD COLUMN holder_email varchar(254), ADD COLUMN mail_reminder_for timestamptz`);
    // The reminder scan reads only cards with a holder e-mail: a small partial index, untouched by other cards' writes.
    await q.query(`CREATE INDEX cards_holder_expiry ON cards (expires_at) WHERE holder_email IS NOT NULL`);
    await q.query(`
      CREATE TABLE mail_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        to_address varchar(254) NOT NULL,
        template varchar(32) NOT NULL CHECK (template IN ('cards_delivered', 'card_expiring')),
        data jsonb NOT NULL,
        -- the caller's name for this mail: a second enqueue under it writes nothing
        dedupe_key varchar(200) NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        -- when a pending mail is due; a claimed one is pushed ahead by the claim's lease
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error varchar(300),
        sent_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, dedupe_key)
      )`);
    await q.query(`CREATE INDEX mail_messages_due ON mail_messages (next_attempt_at) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX mail_messages_project ON mail_messages (project_id, created_at DESC)`);
    await q.query(`
      CREATE TABLE mail_attempts (
        id bigserial PRIMARY KEY,
        mail_id uuid NOT NULL REFERENCES mail_messages(id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        attempted_at timestamptz NOT NULL DEFAULT now(),
        duration_ms integer NOT NULL,
        -- the SMTP server's reply code; null when none came (refused, timeout, closed)
        smtp_code integer,
        error varchar(300)
      )`);
    await q.query(`CREATE INDEX mail_attempts_mail ON mail_attempts (mail_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS mail_attempts`);
    await q.query(`DROP TABLE IF EXISTS mail_messages`);
    await q.query(`DROP INDEX IF EXISTS cards_holder_expiry`);
    await q.query(`ALTER TABLE cards DROP COLUMN IF EXISTS mail_reminder_for, DROP COLUMN IF EXISTS holder_email`);
  }
}
