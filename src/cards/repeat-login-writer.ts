import { Injectable } from '@nestjs/common';
import { ReadinessChecks } from '../core/health/readiness-checks';
import { PreparedStatement, PreparedStatements } from '../database/prepared-statements';
import { cardSql } from './card-rule';
import { CARD_COLUMNS, HIT_ANSWERS, LOG_HITS, lockedLogins, PENDING_LOGINS, PendingLoginWriter } from './pending-login-writer';

/**
 * Every pending repeat login in one statement: each card that admits its bound device counts the
 * use (and takes one of a count card), the device is seen (idle-devices.ts) and the log row written;
 * `ord` says which request a row answers.
 * A request without a row goes on to the new-device statement, then the locked path.
 */
const ADMITS = `${cardSql.admitsRepeatLogin('c', 'req.machine')} AND NOT (req.seated AND c.concurrent_limit IS NOT NULL)`;

export const REPEAT_LOGINS: PreparedStatement = {
  name: 'card_repeat_logins_v4',
  text: `WITH ${PENDING_LOGINS}, ${lockedLogins(ADMITS)}, hit AS (
      UPDATE cards c SET use_count = c.use_count + 1, last_login_at = now(), uses_left = ${cardSql.takeUse('c')}
      FROM locked req
      WHERE c.id = req.card_id AND ${ADMITS}
      RETURNING req.ord, req.machine, ${CARD_COLUMNS.map((column) => `c.${column}`).join(', ')}
    ), seen AS (
      UPDATE card_devices d SET last_seen_at = now() FROM hit WHERE d.card_id = hit.id AND d.machine_code = hit.machine
    ), logged AS (
      ${LOG_HITS}
    )
    ${HIT_ANSWERS}`,
};

/**
 * Group commit of the repeat-login fast path (the common login: a card from its bound device): an
 * active, unexpired card logging in again from a device it is already bound to needs no lock and
 * binds nothing.
 */
@Injectable()
export class RepeatLoginWriter extends PendingLoginWriter {
  constructor(statements: PreparedStatements, readiness: ReadinessChecks) {
    super(statements, REPEAT_LOGINS);
    readiness.register('login', () => this.probe());
  }
}
