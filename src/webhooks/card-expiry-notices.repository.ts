import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { tryTransactionLock } from '../database/advisory-locks';

/** A card marked as told that it expires soon. */
export interface ExpiringCard {
  id: number;
  project_id: string;
  code: string;
  expires_at: Date;
}

/** A card with a holder e-mail marked as reminded that it expires soon, with what its mail says. */
export interface ReminderDue {
  id: number;
  project_id: string;
  project_name: string;
  code: string;
  holder_email: string;
  expires_at: Date;
}

/** The expiry scan's statements, each inside the scan's transaction (`em`). */
@Injectable()
export class CardExpiryNoticesRepository {
  /** Whether this transaction holds the scan's turn. */
  tryLock(em: EntityManager, lockId: number): Promise<boolean> {
    return tryTransactionLock(em, lockId);
  }

  /**
   * Marks up to `batch` usable cards of subscribed projects expiring within `withinSeconds` whose expiry
   * was not announced. Raw: FOR UPDATE … SKIP LOCKED and UPDATE … RETURNING in one CTE; a card in the
   * middle of a login or an edit is left to the next scan rather than waited for.
   */
  markDue(em: EntityManager, withinSeconds: number, batch: number): Promise<ExpiringCard[]> {
    return em.query(
      `WITH due AS (
          SELECT c.id FROM cards c
          WHERE c.project_id IN (SELECT w.project_id FROM webhook_endpoints w WHERE w.enabled AND 'card.expiring_soon' = ANY(w.events))
            AND c.expires_at > now() AND c.expires_at <= now() + make_interval(secs => $1)
            AND c.expiry_notice_for IS DISTINCT FROM c.expires_at
            AND c.status NOT IN ('banned', 'consumed')
          ORDER BY c.expires_at LIMIT $2 FOR UPDATE OF c SKIP LOCKED
        ), marked AS (
          UPDATE cards c SET expiry_notice_for = c.expires_at FROM due WHERE c.id = due.id
          RETURNING c.id, c.project_id, c.code, c.expires_at
        )
        SELECT * FROM marked`,
      [withinSeconds, batch],
    );
  }

  /**
   * Marks up to `batch` usable cards with a holder e-mail expiring within `withinSeconds` whose
   * holder was not reminded of this expiry, in any project. Raw: FOR UPDATE … SKIP LOCKED and
   * UPDATE … RETURNING in one CTE, as `markDue`.
   */
  markRemindersDue(em: EntityManager, withinSeconds: number, batch: number): Promise<ReminderDue[]> {
    return em.query(
      `WITH due AS (
          SELECT c.id FROM cards c
          WHERE c.holder_email IS NOT NULL
            AND c.expires_at > now() AND c.expires_at <= now() + make_interval(secs => $1)
            AND c.mail_reminder_for IS DISTINCT FROM c.expires_at
            AND c.status NOT IN ('banned', 'consumed')
          ORDER BY c.expires_at LIMIT $2 FOR UPDATE OF c SKIP LOCKED
        ), marked AS (
          UPDATE cards c SET mail_reminder_for = c.expires_at FROM due WHERE c.id = due.id
          RETURNING c.id, c.project_id, c.code, c.holder_email, c.expires_at
        )
        SELECT m.*, p.name AS project_name FROM marked m JOIN projects p ON p.id = m.project_id`,
      [withinSeconds, batch],
    );
  }
}
