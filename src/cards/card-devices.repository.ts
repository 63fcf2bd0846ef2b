import { DataSource, EntityManager } from 'typeorm';

/** A bound device as the card's info shows it: with the time of its last successful login. */
export interface DeviceWithLastLogin {
  machine_code: string;
  bound_at: Date;
  last_seen_at: Date;
  last_login_at: Date | null;
}

/**
 * A card's devices (`card_devices`) as the heartbeat and the card's info read and write them, on
 * the data source or in the caller's transaction (`in(em)`). The binding itself is written by the
 * login's statements (card-login.service.ts), in one CTE with the card and its log row.
 */
export class CardDevicesRepository {
  private constructor(private readonly em: EntityManager) {}

  static in(db: EntityManager | DataSource): CardDevicesRepository {
    return new CardDevicesRepository(db instanceof EntityManager ? db : db.manager);
  }

  /** The device was seen now. Raw: on the heartbeat's path, one short statement with the database's clock. */
  async seen(cardId: number, machineCode: string): Promise<void> {
    await this.em.query('UPDATE card_devices SET last_seen_at = now() WHERE card_id = $1 AND machine_code = $2', [
      cardId,
      machineCode,
    ]);
  }

  /**
   * The card's devices in the order they were bound. Raw: each one's last successful login is a
   * correlated subquery on the partitioned login log (newest row first), which the builder cannot say.
   */
  withLastLogins(cardId: number): Promise<DeviceWithLastLogin[]> {
    return this.em.query(
      `SELECT d.machine_code, d.bound_at, d.last_seen_at,
        (SELECT l.created_at FROM login_logs l WHERE l.card_id = d.card_id AND l.machine_code = d.machine_code
          AND l.interface = 'card_login' AND l.result_code = 0 ORDER BY l.id DESC LIMIT 1) AS last_login_at
      FROM card_devices d WHERE d.card_id = $1 ORDER BY d.bound_at, d.machine_code`,
      [cardId],
    );
  }
}
