// Below cards/ and sessions/ (both read a card's features in their own statements), so that
// sessions/ needs nothing of cards/ (no loop between the two folders).

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
