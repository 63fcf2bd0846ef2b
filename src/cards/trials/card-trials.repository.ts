import { DataSource, EntityManager } from 'typeorm';
import { CardTrial } from './card-trial.entity';

/** The devices' trials (`card_trials`): made per use with `in`, on the data source or a transaction's manager. */
export class CardTrialsRepository {
  constructor(private readonly em: EntityManager) {}

  static in(db: EntityManager | DataSource): CardTrialsRepository {
    return new CardTrialsRepository(db instanceof EntityManager ? db : db.manager);
  }

  /**
   * Claims the device's one trial: its id, or null when the device had one. ON CONFLICT DO NOTHING:
   * a racing claim waits on the unique index until the winner commits, then gets null.
   */
  async claim(projectId: string, machineCode: string): Promise<string | null> {
    const { raw } = await this.em
      .createQueryBuilder()
      .insert()
      .into(CardTrial)
      .values({ projectId, machineCode })
      .orIgnore()
      .returning(['id'])
      .updateEntity(false)
      .execute();
    const [row] = raw as Array<{ id: string }>;
    return row?.id ?? null;
  }

  async setCard(id: string, cardId: number): Promise<void> {
    await this.em.update(CardTrial, { id }, { cardId });
  }

  /** Trials given in a project, for ever: one row per device. */
  count(projectId: string): Promise<number> {
    return this.em.countBy(CardTrial, { projectId });
  }
}
