import type { EntityManager } from 'typeorm';
import { Card } from '../card.entity';

/** A feature name (decisions §19): 1-32 of [a-z0-9_.-]; what a client program switches on. */
export const FEATURE_PATTERN = /^[a-z0-9_.-]{1,32}$/;
/** Features of one type; the C client holds this many (clients/c CK_MAX_FEATURES). */
export const MAX_FEATURES = 32;

/**
 * The features of the card row `alias`, as one SQL expression: `'{}'` for a card without a type.
 * A primary-key probe inside the statement that already reads the card, so an answer that carries
 * features costs no extra round trip.
 */
export function cardFeaturesSql(alias: string): string {
  return `COALESCE((SELECT t.features FROM card_types t WHERE t.id = ${alias}.card_type_id), '{}')`;
}

/** The features a driver row holds (PostgreSQL arrays arrive parsed), never null. */
export function featuresOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  // A driver that leaves an array as its text form: '{a,b}' (feature names never need quoting).
  if (typeof value === 'string' && value.startsWith('{') && value.endsWith('}'))
    return value.length > 2 ? value.slice(1, -1).split(',') : [];
  return [];
}

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
