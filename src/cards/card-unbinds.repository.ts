import { DataSource, EntityManager, MoreThan } from 'typeorm';
import { CardUnbind } from './card-unbind.entity';
import { UNBIND_WINDOW_MS } from './rebinding-rules';

/** A card's unbind history (`card_unbinds`), on the data source or in the caller's transaction (`in(em)`). */
export class CardUnbindsRepository {
  private constructor(private readonly em: EntityManager) {}

  static in(db: EntityManager | DataSource): CardUnbindsRepository {
    return new CardUnbindsRepository(db instanceof EntityManager ? db : db.manager);
  }

  /** The holder's unbinds of this card in the 30 days before `now`, oldest first (read under the card's lock when deciding). */
  async recent(cardId: number, now: Date): Promise<Date[]> {
    const rows = await this.em.find(CardUnbind, {
      select: { unboundAt: true },
      where: { cardId, unboundAt: MoreThan(new Date(now.getTime() - UNBIND_WINDOW_MS)) },
      order: { unboundAt: 'ASC' },
    });
    return rows.map((row) => row.unboundAt);
  }

  async record(cardId: number, machineCode: string, at: Date): Promise<void> {
    await this.em.insert(CardUnbind, { cardId, machineCode, unboundAt: at });
  }
}
