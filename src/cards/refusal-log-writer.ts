import { Injectable } from '@nestjs/common';
import { PreparedStatement, PreparedStatements } from '../database/prepared-statements';
import { StatementBatcher } from '../database/statement-batcher';

/** The log row of a login refused before its card was looked at (a gate refusal, a fault). */
export interface RefusalRow {
  projectId: string;
  cardCode: string;
  machineCode: string;
  ip: string;
  family: string;
  interface: string;
  resultCode: number;
  requestId: string;
}

const INSERT_REFUSALS: PreparedStatement = {
  name: 'login_log_refusals_v1',
  text: `INSERT INTO login_logs (project_id, card_code, machine_code, ip, family, interface, result_code, request_id)
    SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[])`,
};

/**
 * The log rows of refused logins, written together when several are pending (a flood of refusals —
 * a quota reached, a disabled program — is when there are many): one statement and one commit for
 * all of them, each refusal answered once its row has committed (statement-batcher.ts).
 */
@Injectable()
export class RefusalLogWriter {
  private readonly batcher = new StatementBatcher<RefusalRow, void>({
    run: async (rows) => {
      const column = <T>(pick: (row: RefusalRow) => T): T[] => rows.map(pick);
      await this.statements.rows(INSERT_REFUSALS, [
        column((r) => r.projectId),
        column((r) => r.cardCode),
        column((r) => r.machineCode),
        column((r) => r.ip),
        column((r) => r.family),
        column((r) => r.interface),
        column((r) => r.resultCode),
        column((r) => r.requestId),
      ]);
      return rows.map(() => undefined);
    },
  });

  constructor(private readonly statements: PreparedStatements) {}

  write(row: RefusalRow): Promise<void> {
    return this.batcher.submit(row);
  }
}
