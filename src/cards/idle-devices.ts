import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, LessThanOrEqual } from 'typeorm';
import type { Project } from '../projects/project.entity';
import { DomainEvents } from '../events/domain-events';
import { LoginLog } from '../login-logs/login-log.entity';
import { CardDevice } from './card-device.entity';
import { CardSessions, HEARTBEAT_RECORD_MS } from './card-sessions';
import { CardDevicesRepository } from './card-devices.repository';

/** The login-log interface of an idle device's release (the new device's login is the `card_login` row beside it). */
export const IDLE_RELEASE_INTERFACE = 'device_idle_release';

/** What the login that released an idle device writes on the release's log row. */
export interface IdleReleaseAttempt {
  projectId: string;
  cardCode: string;
  ip: string;
  family: string;
  requestId: string;
}

type IdleRule = Pick<Project, 'deviceIdleReleaseSeconds'>;

/**
 * Idle devices (decisions §21): with `device_idle_release_seconds` on, a bound device with no login
 * or heartbeat (`card_devices.last_seen_at`) for that long no longer holds a slot, and a new
 * device's login that finds the card full takes it. The release is decided on the locked login
 * path, under the card's row lock, in the login's own transaction: logins of one card queue on that
 * lock and each re-reads the devices, so N new devices racing for one freed slot bind exactly one,
 * on every instance; the fast one-statement paths never release (they need a free slot).
 */
@Injectable()
export class IdleDevices {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: CardSessions,
    private readonly events: DomainEvents,
  ) {}

  /**
   * How often a heartbeat writes its device's `last_seen_at`: once a minute like a session's
   * heartbeat record, more often under a window shorter than two minutes, so that a device beating
   * at least every half window is never taken for idle.
   */
  static seenEveryMs(rule: IdleRule): number {
    return rule.deviceIdleReleaseSeconds > 0
      ? Math.min(HEARTBEAT_RECORD_MS, (rule.deviceIdleReleaseSeconds * 1000) / 2)
      : HEARTBEAT_RECORD_MS;
  }

  /** A heartbeat of a bound device: recorded when the last record is older than `seenEveryMs`. */
  async heartbeat(rule: IdleRule, cardId: number, machine: string, lastSeenAt: Date | null): Promise<void> {
    if (lastSeenAt && Date.now() - lastSeenAt.getTime() < IdleDevices.seenEveryMs(rule)) return;
    await CardDevicesRepository.in(this.dataSource).seen(cardId, machine);
  }

  /**
   * Under the card's row lock: the longest-silent device past the window, when releasing it gives
   * the card a free slot (`boundDevices` bound now); null when the rule is off or none is idle.
   */
  async candidate(
    em: EntityManager,
    rule: IdleRule,
    card: { id: number; deviceLimit: number },
    boundDevices: number,
    now: Date,
  ): Promise<string | null> {
    if (rule.deviceIdleReleaseSeconds <= 0 || boundDevices - 1 >= card.deviceLimit) return null;
    const oldest = await em.findOne(CardDevice, {
      select: { cardId: true, machineCode: true },
      where: { cardId: card.id, lastSeenAt: LessThanOrEqual(this.cutoff(rule, now)) },
      order: { lastSeenAt: 'ASC', machineCode: 'ASC' },
    });
    return oldest?.machineCode ?? null;
  }

  /**
   * Unbinds the candidate, logs it and announces it (`device.unbound`, by `idle`), in the login's
   * transaction; false when it came alive since (a heartbeat does not wait for the card's lock), and
   * the login is then refused.
   */
  async release(
    em: EntityManager,
    rule: IdleRule,
    cardId: number,
    machine: string,
    now: Date,
    attempt: IdleReleaseAttempt,
  ): Promise<boolean> {
    // Still idle under the card's lock, or it came alive since (a heartbeat does not wait for the lock).
    const { affected } = await em.delete(CardDevice, {
      cardId,
      machineCode: machine,
      lastSeenAt: LessThanOrEqual(this.cutoff(rule, now)),
    });
    if (!affected) return false;
    // Its own log row, beside the new device's login row.
    await em.insert(LoginLog, {
      projectId: attempt.projectId,
      cardId,
      cardCode: attempt.cardCode,
      machineCode: machine,
      ip: attempt.ip,
      family: attempt.family as LoginLog['family'],
      interface: IDLE_RELEASE_INTERFACE,
      resultCode: 0,
      requestId: attempt.requestId,
    });
    await this.events.emit(em, attempt.projectId, 'device.unbound', {
      card_id: cardId,
      card_code: attempt.cardCode,
      machine_code: machine,
      by: 'idle',
    });
    return true;
  }

  /** After the login's commit: the released device's sessions end (`device_unbound`). */
  async released(projectId: string, cardId: number, machine: string): Promise<void> {
    await this.sessions.revokeWhere(projectId, { cardId, machine }, 'device_unbound');
  }

  private cutoff(rule: IdleRule, now: Date): Date {
    return new Date(now.getTime() - rule.deviceIdleReleaseSeconds * 1000);
  }
}
