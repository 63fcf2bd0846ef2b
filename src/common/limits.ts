/**
 * Largest value of a PostgreSQL `integer` column. Numeric inputs stored in one carry @Max(MAX_INT32),
 * so an oversized number is a 400 naming the field instead of a database fault (500).
 */
export const MAX_INT32 = 2_147_483_647;
