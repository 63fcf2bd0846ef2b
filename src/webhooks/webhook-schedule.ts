/** An endpoint whose attempts have failed for this long without a success between is switched off. */
export const DISABLE_AFTER_SECONDS = 3 * 86400;
