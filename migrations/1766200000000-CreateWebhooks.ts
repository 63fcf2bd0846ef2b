import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks (decisions §20). The queue lives in PostgreSQL as an outbox of our own (docs/decisions.md,
 * "Webhooks"): a rule that changes something writes its event and one delivery per subscribed
 * endpoint in its own transaction or statement, so an acknowledged change always has its event;
 * every instance claims due deliveries with FOR UPDATE SKIP LOCKED, so each is sent by one of them.
 */
export class CreateWebhooks1766200000000 implements MigrationInterface {
  name = 'CreateWebhooks1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE platform_settings ADD COLUMN webhook_private_targets boolean NOT NULL DEFAULT false`);
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        url varchar(2048) NOT NULL,
        events text[] NOT NULL,
        format varchar(16) NOT NULL CHECK (format IN ('json', 'wecom', 'dingtalk', 'feishu', 'telegram')),
        enabled boolean NOT NULL DEFAULT true,
        -- the first failed attempt since the last success; three days of it disables the endpoint
        failing_since timestamptz,
        -- why the service switched it off ('failing'); null when the author did, or it is on
        disabled_reason varchar(32),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Emitting looks up the project's enabled subscribers of a type in the same statement as the change.
    await q.query(`CREATE INDEX webhook_endpoints_subscribers ON webhook_endpoints (project_id) WHERE enabled`);
    await q.query(`
      CREATE TABLE webhook_events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        type varchar(40) NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        event_id uuid NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        status varchar(16) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        -- when a pending delivery is due; a claimed one is pushed ahead by the claim's lease
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_http_status integer,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC)`);
    await q.query(`CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id)`);
    await q.query(`
      CREATE TABLE webhook_attempts (
        id bigserial PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        attempted_at timestamptz NOT NULL DEFAULT now(),
        http_status integer,
        duration_ms integer NOT NULL,
        -- the first KiB of the answer, or why there was none (timeout, refused, bad address)
        response_excerpt text NOT NULL DEFAULT '',
        error varchar(200)
      )`);
    await q.query(`CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS webhook_attempts`);
    await q.query(`DROP TABLE IF EXISTS webhook_deliveries`);
    await q.query(`DROP TABLE IF EXISTS webhook_events`);
    await q.query(`DROP TABLE IF EXISTS webhook_endpoints`);
    await q.query(`ALTER TABLE platform_settings DROP COLUMN IF EXISTS webhook_private_targets`);
  }
}
