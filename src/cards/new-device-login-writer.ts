import { Injectable } from '@nestjs/common';
import { PreparedStatement, PreparedStatements } from '../database/prepared-statements';
import { cardSql } from './card-rule';
import { isoSql, outboxCtes } from '../events/domain-events';
import { CARD_COLUMNS, HIT_ANSWERS, LOG_HITS, lockedLogins, PENDING_LOGINS, PendingLoginWriter } from './pending-login-writer';

/**
 * Every pending login that binds a new device, in one statement and without an explicit
 * transaction: each card takes the use (and its activation on first use) only if the card rule
 * admits a login and it has a device slot left (`bound_devices`, kept by triggers; migration
 * 1765300000000), then the devices and the success log rows are written beside it. Concurrent logins
 * of one card queue on its row, and each re-checks the condition against the row the one before it
 * left, count included. A device bound meanwhile by the same machine's other request is not bound
 * twice. Anything else (a refusal, a card with seats) gets no row and takes the locked path, which
 * finds the reason.
 */
const ADMITS = `${cardSql.admitsLogin('c')} AND ${cardSql.hasDeviceSlot('c')} AND NOT (req.seated AND c.concurrent_limit IS NOT NULL)`;

export const NEW_DEVICE_LOGINS: PreparedStatement = {
  name: 'card_new_device_logins_v6',
  text: `WITH ${PENDING_LOGINS}, ${lockedLogins(ADMITS)}, hit AS (
      UPDATE cards c SET status = 'active',
        activated_at = CASE WHEN c.status = 'unused' THEN now() ELSE c.activated_at END,
        expires_at = CASE WHEN c.status <> 'unused' THEN c.expires_at
          WHEN c.duration_seconds > 0 THEN now() + c.duration_seconds * interval '1 second' END,
        last_login_at = now(), use_count = c.use_count + 1, uses_left = ${cardSql.takeUse('c')}
      FROM locked req
      WHERE c.id = req.card_id AND ${ADMITS}
      RETURNING req.ord, req.machine, ${CARD_COLUMNS.map((column) => `c.${column}`).join(', ')}
    ), device AS (
      INSERT INTO card_devices (card_id, machine_code, bound_at) SELECT id, machine, now() FROM hit ON CONFLICT DO NOTHING
      RETURNING card_id, machine_code
    ), logged AS (
      ${LOG_HITS}
    ), happened AS (
      SELECT hit.project_id, 'device.bound' AS type,
        jsonb_build_object('card_id', hit.id, 'card_code', hit.code, 'machine_code', device.machine_code) AS data
      FROM device JOIN hit ON hit.id = device.card_id
      UNION ALL
      SELECT hit.project_id, 'card.activated', jsonb_build_object('card_id', hit.id, 'card_code', hit.code, 'machine_code', hit.machine,
        'activated_at', ${isoSql('hit.activated_at')}, 'expires_at', ${isoSql('hit.expires_at')})
      FROM hit WHERE hit.activated_at = now()
    ), ${outboxCtes('happened')}
    ${HIT_ANSWERS}`,
};

/**
 * Group commit of the new-device login (a card's first login, or a login from a device it has a
 * slot for): the logins pending at the same time share one statement and one commit.
 */
@Injectable()
export class NewDeviceLoginWriter extends PendingLoginWriter {
  constructor(statements: PreparedStatements) {
    super(statements, NEW_DEVICE_LOGINS);
  }
}
