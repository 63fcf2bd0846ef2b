import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Admin two-factor sign-in and the admin audit trail (issue 35).
 *
 * - admin_users: the TOTP secret (SecretBox-encrypted; set at enrolment, `totp_enabled_at` once the
 *   first code confirmed it) and the last time step accepted, so no code is accepted twice: the
 *   check is one conditional UPDATE (`totp_last_step < step`), atomic across instances.
 * - admin_recovery_codes: one-time codes, stored as SHA-256 (they are 50 random bits, like tokens);
 *   a use is one conditional UPDATE of `used_at`.
 * - platform_settings.admin_two_factor_required: every admin account must enrol before anything else.
 * - admin_audit: append-only. A trigger refuses UPDATE, DELETE and TRUNCATE for every role, so
 *   not even a bug in this service (or a console user with SQL) rewrites history quietly; the
 *   owner can still drop the trigger, which is a visible schema change.
 */
export class AddTwoFactorAndAuditTrail1766000000000 implements MigrationInterface {
  name = 'AddTwoFactorAndAuditTrail1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE admin_users
        ADD COLUMN totp_secret text,
        ADD COLUMN totp_enabled_at timestamptz,
        ADD COLUMN totp_last_step bigint
    `);
    await q.query(`
      CREATE TABLE admin_recovery_codes (
        id bigserial PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES admin_users(id) ON DELETE CASCADE,
        code_hash char(64) NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )
    `);
    await q.query(`CREATE UNIQUE INDEX admin_recovery_codes_user_code ON admin_recovery_codes (user_id, code_hash)`);
    await q.query(`ALTER TABLE platform_settings ADD COLUMN admin_two_factor_required boolean NOT NULL DEFAULT false`);
    await q.query(`
      CREATE TABLE admin_audit (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        actor_id uuid,
        actor_username varchar(32),
        actor_role varchar(20),
        action varchar(80) NOT NULL,
        outcome varchar(10) NOT NULL CHECK (outcome IN ('success', 'refused')),
        result_code integer,
        resource_type varchar(40) NOT NULL,
        resource_id varchar(128),
        project_id uuid,
        method varchar(8) NOT NULL,
        route varchar(200) NOT NULL,
        changes jsonb,
        ip varchar(64) NOT NULL,
        request_id varchar(64) NOT NULL
      )
    `);
    await q.query(`CREATE INDEX admin_audit_at ON admin_audit (at DESC, id DESC)`);
    await q.query(`CREATE INDEX admin_audit_project_at ON admin_audit (project_id, at DESC) WHERE project_id IS NOT NULL`);
    await q.query(`CREATE INDEX admin_audit_actor_at ON admin_audit (actor_id, at DESC)`);
    await q.query(`
      CREATE FUNCTION admin_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'admin_audit is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END
      $$
    `);
    await q.query(
      `CREATE TRIGGER admin_audit_no_change BEFORE UPDATE OR DELETE ON admin_audit FOR EACH ROW EXECUTE FUNCTION admin_audit_append_only()`,
    );
    await q.query(
      `CREATE TRIGGER admin_audit_no_truncate BEFORE TRUNCATE ON admin_audit FOR EACH STATEMENT EXECUTE FUNCTION admin_audit_append_only()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS admin_audit`);
    await q.query(`DROP FUNCTION IF EXISTS admin_audit_append_only()`);
    await q.query(`ALTER TABLE platform_settings DROP COLUMN IF EXISTS admin_two_factor_required`);
    await q.query(`DROP TABLE IF EXISTS admin_recovery_codes`);
    await q.query(
      `ALTER TABLE admin_users DROP COLUMN IF EXISTS totp_secret, DROP COLUMN IF EXISTS totp_enabled_at, DROP COLUMN IF EXISTS totp_last_step`,
    );
  }
}
