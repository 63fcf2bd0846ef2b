/**
 * Largest value of a PostgreSQL `integer` column. Numeric inputs stored in one carry @Max(MAX_INT32),
 * so an oversized number is a 400 naming the field instead of a database fault (500).
 */
export const MAX_INT32 = 2_147_483_647;

/**
 * Lengths of an announcement's title and content, a project's and the platform's alike (the platform
 * DTOs share them without importing the project announcements' module, which sits above platform).
 */
export const ANNOUNCEMENT_TITLE_MAX = 200;
export const ANNOUNCEMENT_CONTENT_MAX = 20_000;

/** Length of an operator's note on a licence site or a blacklist entry. */
export const NOTE_MAX = 200;

/** The most uses a count card holds (a card type's, a card's, an import row's, a bulk set_uses). */
export const MAX_CARD_USES = 1_000_000;
