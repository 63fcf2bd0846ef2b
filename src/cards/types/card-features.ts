import type { EntityManager } from 'typeorm';
import { cardFeaturesSql, featuresOf } from '../../database/card-features-sql';
import { Card } from '../card.entity';

/** A feature name (decisions §19): 1-32 of [a-z0-9_.-]; what a client program switches on. */
export const FEATURE_PATTERN = /^[a-z0-9_.-]{1,32}$/;
/** Features of one type; the C client holds this many (clients/c CK_MAX_FEATURES). */
export const MAX_FEATURES = 32;

/** A card of the project by its code, with its type's features, in one query; null when none. */
export async function findCardWithFeatures(em: EntityManager, projectId: string, code: string): Promise<Card | null> {
  const { entities, raw } = await em
    .getRepository(Card)
    .createQueryBuilder('c')
    .addSelect(cardFeaturesSql('c'), 'card_features')
    .where('c.project_id = :projectId AND c.code = :code', { projectId, code })
    .getRawAndEntities();
  const card = entities[0];
  if (!card) return null;
  card.features = featuresOf((raw[0] as Record<string, unknown>).card_features);
  return card;
}
