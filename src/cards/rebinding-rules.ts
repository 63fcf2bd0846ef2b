import type { Project } from '../projects/project.entity';

/** Why an end-user unbind is refused (decisions §21), in `data.reason` of `20005 UNBIND_REFUSED`. */
export const UNBIND_REFUSAL_REASONS = ['cooldown', 'limit', 'disabled', 'not_bound'] as const;
export type UnbindRefusalReason = (typeof UNBIND_REFUSAL_REASONS)[number];

/** The rolling window of `unbind_max_per_30_days`; the cooldown is at most this long (project DTO). */
export const UNBIND_WINDOW_MS = 30 * 86_400_000;

export interface UnbindRefusal {
  reason: UnbindRefusalReason;
  /** When the same unbind would be granted; null when waiting does not help. */
  retryAt: Date | null;
}

export type RebindingRules = Pick<Project, 'unbindEnabled' | 'unbindMax' | 'unbindCooldownSeconds' | 'unbindMaxPer30Days'>;

/**
 * Whether the card holder may unbind a device of this card now (the device's own binding aside):
 * the project's switch, the lifetime maximum (`unbind_max` against `unbind_count`), the 30-day
 * maximum and the cooldown, both counted over `recent`, the holder's unbinds of the last 30 days in
 * ascending order. When both the 30-day maximum and the cooldown hold it back, the later retry time
 * is the true one.
 */
export function unbindRefusal(rules: RebindingRules, unbindCount: number, recent: Date[], now: Date): UnbindRefusal | null {
  if (!rules.unbindEnabled) return { reason: 'disabled', retryAt: null };
  if (rules.unbindMax !== null && unbindCount >= rules.unbindMax) return { reason: 'limit', retryAt: null };
  const since = now.getTime() - UNBIND_WINDOW_MS;
  const inWindow = recent.filter((at) => at.getTime() > since);
  let refusal: UnbindRefusal | null = null;
  const max = rules.unbindMaxPer30Days;
  if (max !== null && inWindow.length >= max) {
    // Free again when enough of them have left the window: the (n - max + 1)th oldest, 30 days on.
    refusal = {
      reason: 'limit',
      retryAt: max === 0 ? null : new Date(inWindow[inWindow.length - max].getTime() + UNBIND_WINDOW_MS),
    };
    if (refusal.retryAt === null) return refusal;
  }
  const last = inWindow[inWindow.length - 1];
  if (rules.unbindCooldownSeconds > 0 && last) {
    const free = new Date(last.getTime() + rules.unbindCooldownSeconds * 1000);
    if (free > now && (!refusal || free > refusal.retryAt!)) refusal = { reason: 'cooldown', retryAt: free };
  }
  return refusal;
}
