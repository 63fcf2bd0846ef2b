import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Any, EntityManager, IsNull, MoreThan, Repository } from 'typeorm';
import { CardSessions } from '../cards/card-sessions';
import { DomainEvents } from '../events/domain-events';
import { SessionEnd } from './session-end';
import { Session, SessionType } from './session.entity';

/**
 * Ending sessions early, by rule (decisions §18 says why each ended): a card banned or a device
 * unbound (cards ask through CardSessions), a program user's device unbound, the author's forced
 * offline. A session that ended here answers its next heartbeat SESSION_INVALID with its `ended_by`.
 */
@Injectable()
export class SessionRevocations implements CardSessions {
  constructor(
    @InjectRepository(Session) private readonly sessions: Repository<Session>,
    private readonly events: DomainEvents,
  ) {}

  /**
   * Forced offline: every live session of a card, a program user, or (with neither) a whole project.
   * Answers how many live ones ended: expired sessions are left as they are, so the count matches
   * the live-session list the author saw.
   */
  async revokeWhere(
    projectId: string,
    target: { cardId?: number; userId?: number; machine?: string },
    endedBy: SessionEnd,
  ): Promise<number> {
    const where = {
      projectId,
      revokedAt: IsNull(),
      expiresAt: MoreThan(new Date()),
      ...(target.cardId !== undefined ? { cardId: target.cardId } : {}),
      ...(target.userId !== undefined ? { userId: target.userId, type: 'app_user' as const } : {}),
      ...(target.machine !== undefined ? { machineCode: target.machine } : {}),
    };
    if (endedBy === 'forced_offline' && target.machine === undefined) return this.forcedOffline(projectId, target);
    const result = await this.sessions.update(where, { revokedAt: new Date(), endedBy });
    return result.affected ?? 0;
  }

  /** The live sessions of these cards end in the caller's transaction (a bulk ban's chunk, with its cards' change). */
  async revokeCardsIn(em: EntityManager, projectId: string, cardIds: number[], endedBy: 'card_banned'): Promise<number> {
    const result = await em.update(
      Session,
      { projectId, cardId: Any(cardIds), revokedAt: IsNull() },
      { revokedAt: () => 'now()', endedBy },
    );
    return result.affected ?? 0;
  }

  /** The author's forced offline: each session it ends is announced (session.forced_offline), in the same transaction. */
  private forcedOffline(projectId: string, target: { cardId?: number; userId?: number }): Promise<number> {
    return this.sessions.manager.transaction(async (em) => {
      const query = em
        .createQueryBuilder()
        .update(Session)
        .set({ revokedAt: () => 'now()', endedBy: 'forced_offline' })
        .where('project_id = :projectId AND revoked_at IS NULL AND expires_at > now()', { projectId });
      if (target.cardId !== undefined) query.andWhere('card_id = :cardId', { cardId: target.cardId });
      if (target.userId !== undefined) query.andWhere("user_id = :userId AND type = 'app_user'", { userId: target.userId });
      const { raw } = await query.returning(['id', 'type', 'cardId', 'userId', 'machineCode']).updateEntity(false).execute();
      const ended = raw as Array<{
        id: string;
        type: SessionType;
        card_id: number | null;
        user_id: number | null;
        machine_code: string;
      }>;
      await this.events.emitMany(
        em,
        projectId,
        'session.forced_offline',
        ended.map((s) => ({
          session_id: String(s.id),
          type: s.type,
          card_id: s.card_id,
          user_id: s.user_id,
          machine_code: s.machine_code,
        })),
      );
      return ended.length;
    });
  }
}
