import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agents (resellers, decisions §19): an admin account of role `agent` with a row of its own here,
 * its projects, and a balance in integer cents that can never go below zero (CHECK). Every change
 * of the balance writes one ledger entry in the same transaction (src/agents/ledger.ts), so the
 * balance always equals the sum of its entries' amounts (credit, refund and commission add; debit
 * and clawback take away).
 */
export class CreateAgentsAndLedger1766410000000 implements MigrationInterface {
  name = 'CreateAgentsAndLedger1766410000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE admin_users DROP CONSTRAINT admin_users_role_check`);
    await q.query(
      `ALTER TABLE admin_users ADD CONSTRAINT admin_users_role_check CHECK (role IN ('platform_admin', 'author', 'agent'))`,
    );
    await q.query(`
      CREATE TABLE agents (
        id uuid PRIMARY KEY REFERENCES admin_users(id) ON DELETE CASCADE,
        owner_id uuid NOT NULL REFERENCES admin_users(id) ON DELETE CASCADE,
        parent_agent_id uuid REFERENCES agents(id) ON DELETE RESTRICT,
        level smallint NOT NULL CHECK (level BETWEEN 1 AND 3),
        discount_percent smallint NOT NULL CHECK (discount_percent BETWEEN 0 AND 100),
        can_create_sub_agents boolean NOT NULL DEFAULT false,
        can_ban boolean NOT NULL DEFAULT false,
        can_unbind boolean NOT NULL DEFAULT false,
        balance_cents bigint NOT NULL DEFAULT 0 CHECK (balance_cents >= 0),
        low_balance_cents bigint CHECK (low_balance_cents >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX agents_owner_idx ON agents (owner_id)`);
    await q.query(`CREATE INDEX agents_parent_idx ON agents (parent_agent_id)`);
    await q.query(`
      CREATE TABLE agent_projects (
        agent_id uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        PRIMARY KEY (agent_id, project_id)
      )`);
    await q.query(`CREATE INDEX agent_projects_project_idx ON agent_projects (project_id)`);
    await q.query(`
      CREATE TABLE agent_ledger (
        id bigserial PRIMARY KEY,
        agent_id uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        kind varchar(12) NOT NULL CHECK (kind IN ('credit', 'debit', 'refund', 'commission', 'clawback')),
        amount_cents bigint NOT NULL CHECK (amount_cents <> 0),
        balance_after_cents bigint NOT NULL CHECK (balance_after_cents >= 0),
        order_id uuid,
        batch_id uuid,
        note varchar(200),
        actor_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((kind IN ('credit', 'refund', 'commission')) = (amount_cents > 0))
      )`);
    await q.query(`CREATE INDEX agent_ledger_agent_idx ON agent_ledger (agent_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agent_ledger`);
    await q.query(`DROP TABLE agent_projects`);
    await q.query(`DROP TABLE agents`);
    await q.query(`DELETE FROM admin_users WHERE role = 'agent'`);
    await q.query(`ALTER TABLE admin_users DROP CONSTRAINT admin_users_role_check`);
    await q.query(`ALTER TABLE admin_users ADD CONSTRAINT admin_users_role_check CHECK (role IN ('platform_admin', 'author'))`);
  }
}
