import { EntityManager } from 'typeorm';

/**
 * A card's seats (decisions §13) as a login takes one, under the card's row lock held by the
 * caller's transaction. Raw: on the login path, one short statement each, no query building per login.
 */
export class SessionSeatsRepository {
  private constructor(private readonly em: EntityManager) {}

  static in(em: EntityManager): SessionSeatsRepository {
    return new SessionSeatsRepository(em);
  }

  /** The card's live sessions, oldest first. */
  async live(cardId: number): Promise<string[]> {
    const rows = (await this.em.query(
      `SELECT id FROM sessions WHERE card_id = $1 AND revoked_at IS NULL AND expires_at > now() ORDER BY created_at, id`,
      [cardId],
    )) as Array<{ id: string }>;
    return rows.map((row) => row.id);
  }

  /** Ends these sessions as evicted from their seat, the ids as one array parameter. */
  async evict(ids: string[]): Promise<void> {
    await this.em.query(`UPDATE sessions SET revoked_at = now(), ended_by = 'seat_evicted' WHERE id = ANY($1::bigint[])`, [ids]);
  }
}
