import { EntityManager } from 'typeorm';
import type { CardStatus } from './card.entity';
import { attemptOf, SUCCESS } from './card-login-attempt';
import { cardSql } from './card-rule';

/**
 * The writes of a login decided under the card's lock, in one statement: the new device's binding
 * (when $4) or the bound device seen, the card's activation, use and count, and the success log row.
 */
const RECORD_LOCKED_LOGIN = `
  WITH device AS (
    INSERT INTO card_devices (card_id, machine_code, bound_at, last_seen_at) SELECT $1, $2, $3, $3 WHERE $4::boolean
  ), seen AS (
    UPDATE card_devices SET last_seen_at = $3 WHERE card_id = $1 AND machine_code = $2 AND NOT $4::boolean
  ), card AS (
    UPDATE cards c SET status = $5, activated_at = $6, expires_at = $7, last_login_at = $3, use_count = c.use_count + 1,
      uses_left = ${cardSql.takeUse('c')}
    WHERE c.id = $1
  )
  INSERT INTO login_logs (project_id, card_id, card_code, machine_code, ip, family, interface, result_code, request_id, token_hash)
  VALUES ($8, $1, $9, $10, $11, $12, $13, ${SUCCESS}, $14, $15)`;

/** The card's devices as a login under its lock reads them, with its type's features. */
export interface LockedBinding {
  bound: boolean;
  bound_devices: number;
  features: unknown;
}

/** What a login decided under the card's lock writes. */
export interface LockedLoginRecord {
  cardId: number;
  machine: string;
  at: Date;
  /** A device bound by this login (else the bound device is seen). */
  newDevice: boolean;
  status: CardStatus;
  activatedAt: Date | null;
  expiresAt: Date | null;
  log: ReturnType<typeof attemptOf>;
  tokenHash: string;
}

/**
 * The statements of a card login decided under the card's row lock (card-login.service.ts: a login
 * the one-statement writers could not take), in the caller's transaction. Raw: on the login path,
 * one short statement each, no query building per login.
 */
export class LockedLoginRepository {
  private constructor(private readonly em: EntityManager) {}

  static in(em: EntityManager): LockedLoginRepository {
    return new LockedLoginRepository(em);
  }

  /**
   * Whether this machine is bound, how many are, and the type's features, in one statement. Read
   * only once the card row is locked: a statement started before the lock was granted would see an
   * older snapshot, so concurrent logins of one card count and bind one at a time.
   */
  async binding(cardId: number, machine: string, cardTypeId: number | null): Promise<LockedBinding> {
    const [binding] = (await this.em.query(
      `SELECT bool_or(machine_code = $2) AS bound, count(*)::int AS bound_devices,
          (SELECT t.features FROM card_types t WHERE t.id = $3::integer) AS features
        FROM card_devices WHERE card_id = $1`,
      [cardId, machine, cardTypeId],
    )) as LockedBinding[];
    return binding;
  }

  /** One CTE writes the binding, the card and the success log row. */
  async record(r: LockedLoginRecord): Promise<void> {
    await this.em.query(RECORD_LOCKED_LOGIN, [
      r.cardId,
      r.machine,
      r.at,
      r.newDevice,
      r.status,
      r.activatedAt,
      r.expiresAt,
      r.log.projectId,
      r.log.cardCode,
      r.log.machineCode,
      r.log.ip,
      r.log.family,
      r.log.interface,
      r.log.requestId,
      r.tokenHash,
    ]);
  }
}
