import type { EntityManager } from 'typeorm';

/**
 * How often a client's heartbeat is recorded (time and address), at most, per session and per card
 * device, and not within this of the login: the Sessions page tells a client that stopped from one
 * that beats to within a minute, while a session costs at most one write a minute however often its
 * client beats. A card fact (idle release reads the devices' last beat); sessions record to it.
 */
export const HEARTBEAT_RECORD_MS = 60_000;

/**
 * What cards ask of sessions: end the live sessions of a card, or of one of its devices, when the card
 * is banned or the device unbound. A session depends on its card, never the reverse, so cards name
 * this and SessionsModule provides it (SessionRevocations).
 */
export abstract class CardSessions {
  abstract revokeWhere(
    projectId: string,
    target: { cardId: number; machine?: string },
    endedBy: 'card_banned' | 'device_unbound',
  ): Promise<number>;

  /** The same for many cards, in the caller's transaction (a bulk ban's chunk). */
  abstract revokeCardsIn(em: EntityManager, projectId: string, cardIds: number[], endedBy: 'card_banned'): Promise<number>;
}
