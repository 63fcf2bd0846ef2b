import { MigrationInterface, QueryRunner } from 'typeorm';

const INTERFACES = [
  'card_login',
  'card_unbind',
  'card_heartbeat',
  'user_register',
  'user_login',
  'user_heartbeat',
  'announcement',
  'app_config',
  'get_file',
  'app_profile',
  'version_check',
  'state_check',
  'paycheck',
  'licence_verify',
];

/** Back-office accounts and tokens, projects, platform settings and interface switches. */
export class CreateFoundation1763800000000 implements MigrationInterface {
  name = 'CreateFoundation1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE admin_users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        username varchar(32) NOT NULL,
        password_hash text NOT NULL,
        role varchar(20) NOT NULL CHECK (role IN ('platform_admin', 'author')),
        status varchar(10) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
        daily_api_quota integer CHECK (daily_api_quota >= 0),
        daily_verify_quota integer CHECK (daily_verify_quota >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX admin_users_username_key ON admin_users (lower(username))`);
    await q.query(`
      CREATE TABLE admin_tokens (
        id bigserial PRIMARY KEY,
        token_hash char(64) NOT NULL UNIQUE,
        user_id uuid NOT NULL REFERENCES admin_users(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX admin_tokens_user_idx ON admin_tokens (user_id)`);
    await q.query(`
      CREATE TABLE projects (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        program_id char(8) NOT NULL UNIQUE CHECK (program_id ~ '^[1-9][0-9]{7}$'),
        owner_id uuid NOT NULL REFERENCES admin_users(id) ON DELETE RESTRICT,
        name varchar(100) NOT NULL,
        status varchar(10) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
        verification_enabled boolean NOT NULL DEFAULT true,
        basic_package boolean NOT NULL DEFAULT true,
        plan_level integer NOT NULL DEFAULT 0 CHECK (plan_level >= 0),
        licence_verify boolean NOT NULL DEFAULT false,
        device_limit integer NOT NULL DEFAULT 1 CHECK (device_limit >= 1),
        unbind_enabled boolean NOT NULL DEFAULT true,
        unbind_deduct_seconds integer NOT NULL DEFAULT 0 CHECK (unbind_deduct_seconds >= 0),
        unbind_max integer CHECK (unbind_max >= 0),
        session_ttl_seconds integer NOT NULL DEFAULT 600 CHECK (session_ttl_seconds > 0),
        heartbeat_interval_seconds integer NOT NULL DEFAULT 60 CHECK (heartbeat_interval_seconds > 0),
        user_machine_policy varchar(10) NOT NULL DEFAULT 'rebind' CHECK (user_machine_policy IN ('rebind', 'locked', 'free')),
        transport_encryption varchar(10) NOT NULL DEFAULT 'none' CHECK (transport_encryption IN ('none', 'rc4', 'aes')),
        ip_bindings jsonb NOT NULL DEFAULT '[]'::jsonb,
        connect_enabled boolean NOT NULL DEFAULT false,
        api_secret_enc text NOT NULL,
        legacy_secret_enc text NOT NULL,
        transport_key_enc text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX projects_owner_idx ON projects (owner_id)`);
    await q.query(`
      CREATE TABLE platform_settings (
        id integer PRIMARY KEY CHECK (id = 1),
        connect_opening_mode varchar(20) NOT NULL DEFAULT 'base_package'
          CHECK (connect_opening_mode IN ('base_package', 'entitlement', 'self_service')),
        connect_min_level integer NOT NULL DEFAULT 1 CHECK (connect_min_level >= 0),
        legacy_metering_enabled boolean NOT NULL DEFAULT true,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`INSERT INTO platform_settings (id) VALUES (1)`);
    await q.query(`
      CREATE TABLE platform_interfaces (
        name varchar(32) PRIMARY KEY,
        enabled boolean NOT NULL DEFAULT true,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`INSERT INTO platform_interfaces (name) SELECT unnest($1::varchar[])`, [INTERFACES]);
    await q.query(`
      CREATE TABLE project_interfaces (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name varchar(32) NOT NULL REFERENCES platform_interfaces(name),
        authorized boolean NOT NULL DEFAULT true,
        daily_quota integer CHECK (daily_quota >= 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, name)
      )`);
    await q.query(`
      CREATE TABLE platform_announcements (
        id serial PRIMARY KEY,
        title varchar(200) NOT NULL,
        content text NOT NULL,
        created_by uuid REFERENCES admin_users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'platform_announcements',
      'project_interfaces',
      'platform_interfaces',
      'platform_settings',
      'projects',
      'admin_tokens',
      'admin_users',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
