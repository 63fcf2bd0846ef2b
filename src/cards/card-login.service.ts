import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { InterfaceGate } from '../access/interface-gate';
import { hashToken, newToken } from '../core/crypto/tokens';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { ClientReply } from '../http/envelope/render';
import { MetricsService } from '../http/metrics/metrics.service';
import { LoginLog } from '../login-logs/login-log.entity';
import { Card } from './card.entity';
import { CardGuesses } from './card-guesses';
import { hasDeviceSlot, loginRefusal } from './card-rule';
import { RefusalLogWriter } from './refusal-log-writer';
import { NewDeviceLoginWriter } from './new-device-login-writer';
import { attemptOf, CardLoginRequest, CardLoginSuccess, cardFromRow, logRow, pendingLogin } from './card-login-attempt';
import { RepeatLoginWriter } from './repeat-login-writer';
import { DomainEvents } from '../events/domain-events';
import { featuresOf } from '../database/card-features-sql';
import { IdleDevices } from './idle-devices';
import { asLoggedLogin } from './logged-login';
import { LockedLoginRepository } from './locked-login.repository';

/** What the card rule can refuse a login with, in every family (card-rule.ts `loginRefusal`, `deviceRefusal`). */
export const CARD_LOGIN_REFUSALS = [
  ErrorCode.CARD_INVALID,
  ErrorCode.CARD_EXPIRED,
  ErrorCode.CARD_BANNED,
  ErrorCode.DEVICE_LIMIT_REACHED,
  ErrorCode.CARD_NO_USES_LEFT,
  // Over the guessing limit (decisions §23, card-guesses.ts).
  ErrorCode.RATE_LIMITED,
] as const;

/**
 * The one rule that decides a card login, for every family (decisions §4, §7): the interface gate
 * (status, package or Connect opening, switch, platform status, authorization, quota), then, under
 * a row lock on the card, its state, first-use activation and device binding. Every attempt writes
 * one login-log row, in the same transaction as the card's changes when it gets that far. Keys
 * that match no card are limited per program and address (card-guesses.ts).
 */
@Injectable()
export class CardLoginService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly gate: InterfaceGate,
    private readonly repeatLogins: RepeatLoginWriter,
    private readonly newDeviceLogins: NewDeviceLoginWriter,
    private readonly refusals: RefusalLogWriter,
    private readonly metrics: MetricsService,
    private readonly guesses: CardGuesses,
    private readonly events: DomainEvents,
    private readonly idleDevices: IdleDevices,
  ) {}

  /**
   * A family's card login answered: the rule (`login`), then `reply`, the family's answer built on
   * its success. The answer, and whatever either throws once past the guessing limit, names the
   * login (`loggedLogin`): its login-log row is written, so the HTTP layer counts it in
   * card_logins_total and writes the request no request-log row.
   */
  async answer(
    request: CardLoginRequest,
    reply: (success: CardLoginSuccess) => ClientReply | Promise<ClientReply>,
  ): Promise<ClientReply> {
    const { family } = request.call;
    const success = await this.login(request);
    return { ...(await asLoggedLogin(family, async () => reply(success))), loggedLogin: family };
  }

  async login(request: CardLoginRequest): Promise<CardLoginSuccess> {
    // Over the guessing limit nothing below runs: no gate, no quota, no login-log row (the request log keeps the request).
    return this.guesses.guard(request.call, () => asLoggedLogin(request.call.family, () => this.admitted(request)));
  }

  private async admitted(request: CardLoginRequest): Promise<CardLoginSuccess> {
    try {
      await this.gate.admit(request.call, 'card_login', request.machine);
    } catch (error) {
      await this.logRefusal(request, error);
      throw error;
    }
    const token = newToken();
    const tokenHash = hashToken(token);
    let card: Card | ServiceError;
    const idle: IdleRelease = {};
    const started = process.hrtime.bigint();
    try {
      const repeated = await this.repeatLogin(request, tokenHash);
      if (repeated) this.metrics.loginLogWritten('fast', started);
      card =
        repeated ??
        (await this.newDeviceLogin(request, tokenHash)) ??
        (await this.dataSource.transaction((em) => this.decide(em, request, tokenHash, idle)));
      if (!repeated) this.metrics.loginLogWritten('locked', started);
    } catch (fault) {
      await this.logRefusal(request, fault);
      throw fault;
    }
    if (card instanceof ServiceError) throw card;
    if (idle.machine !== undefined) await this.idleDevices.released(request.call.program.project.id, card.id, idle.machine);
    return { card, token };
  }

  /**
   * The log row of an attempt refused by the gate or failed by a fault: every attempt that reaches
   * the gate is logged. A fault's row is written if the database still can (SYSTEM_ERROR).
   */
  private async logRefusal(request: CardLoginRequest, error: unknown): Promise<void> {
    if (error instanceof ServiceError && error.code !== ErrorCode.SYSTEM_ERROR) {
      const started = process.hrtime.bigint();
      await this.refusals.write({ ...attemptOf(request), resultCode: error.code });
      this.metrics.loginLogWritten('refusal', started);
    } else {
      await this.refusals.write({ ...attemptOf(request), resultCode: ErrorCode.SYSTEM_ERROR }).catch(() => undefined);
    }
  }

  /**
   * The common case in one statement: an active, unexpired card logging in again from a device it
   * is already bound to needs no lock and binds nothing, so counting the use and writing the log
   * row is one atomic UPDATE ... RETURNING with the insert beside it, shared by the repeat logins
   * pending at the same time (repeat-login-writer.ts). Anything else (first use, a new device, any
   * refusal) returns null.
   */
  private repeatLogin(request: CardLoginRequest, tokenHash: string): Promise<Card | null> {
    return this.cardAfter(this.repeatLogins.write(pendingLogin(request, tokenHash)));
  }

  /**
   * A first use or a new device the card has a slot for, in one statement shared by the new-device
   * logins pending at the same time (new-device-login-writer.ts); null when the locked path must decide.
   */
  private newDeviceLogin(request: CardLoginRequest, tokenHash: string): Promise<Card | null> {
    return this.cardAfter(this.newDeviceLogins.write(pendingLogin(request, tokenHash)));
  }

  private async cardAfter(written: Promise<Record<string, unknown> | null>): Promise<Card | null> {
    const row = await written;
    if (!row) return null;
    const card = this.dataSource.getRepository(Card).create(cardFromRow(row));
    card.features = featuresOf(row.features);
    return card;
  }

  /**
   * Returns the updated card, or the refusal (returned, not thrown, so its log row commits). A new
   * device that finds the card full takes the slot of an idle device (idle-devices.ts), named in `idle`.
   */
  private async decide(
    em: EntityManager,
    request: CardLoginRequest,
    tokenHash: string,
    idle: IdleRelease,
  ): Promise<Card | ServiceError> {
    const card = await em
      .getRepository(Card)
      .createQueryBuilder('c')
      .setLock('pessimistic_write')
      .where('c.project_id = :projectId AND c.code = :code', {
        projectId: request.call.program.project.id,
        code: request.cardKey,
      })
      .getOne();
    const refuse = async (code: ErrorCode) => {
      await em.insert(LoginLog, logRow(request, card?.id ?? null, code));
      return new ServiceError(code);
    };
    const now = new Date();
    if (!card) return refuse(ErrorCode.CARD_INVALID);
    const refusal = loginRefusal(card, now.getTime());
    if (refusal) return refuse(refusal);

    // Under the card's lock; the type's features come in the same statement (LockedLoginRepository).
    const locked = LockedLoginRepository.in(em);
    const binding = await locked.binding(card.id, request.machine, card.cardTypeId);
    card.features = featuresOf(binding.features);
    const { project } = request.call.program;
    const idleMachine =
      binding.bound || hasDeviceSlot(card, binding.bound_devices)
        ? null
        : await this.idleDevices.candidate(em, project, card, binding.bound_devices, now);
    if (!binding.bound && !hasDeviceSlot(card, binding.bound_devices) && idleMachine === null)
      return refuse(ErrorCode.DEVICE_LIMIT_REACHED);
    if (card.status === 'unused') {
      card.status = 'active';
      card.activatedAt = now;
      card.expiresAt = card.durationSeconds > 0 ? new Date(now.getTime() + card.durationSeconds * 1000) : null;
    }
    const seatRefusal = request.seated ? await request.seated(em, card) : null;
    if (seatRefusal) return refuse(seatRefusal);
    if (idleMachine !== null) {
      const { projectId, cardCode, ip, family, requestId } = attemptOf(request);
      if (
        !(await this.idleDevices.release(em, project, card.id, idleMachine, now, { projectId, cardCode, ip, family, requestId }))
      ) {
        return refuse(ErrorCode.DEVICE_LIMIT_REACHED);
      }
      idle.machine = idleMachine;
    }
    card.useCount += 1;
    card.lastLoginAt = now;
    if (card.kind === 'count') card.usesLeft = (card.usesLeft ?? 0) - 1;
    const log = attemptOf(request);
    await locked.record({
      cardId: card.id,
      machine: request.machine,
      at: now,
      newDevice: !binding.bound,
      status: card.status,
      activatedAt: card.activatedAt,
      expiresAt: card.expiresAt,
      log,
      tokenHash,
    });
    // Only a new device's login gets here with events to record; they commit with the binding (decisions §20).
    const ref = { card_id: card.id, card_code: card.code };
    if (!binding.bound) await this.events.emit(em, log.projectId, 'device.bound', { ...ref, machine_code: request.machine });
    if (card.activatedAt === now) {
      await this.events.emit(em, log.projectId, 'card.activated', {
        ...ref,
        machine_code: request.machine,
        activated_at: now.toISOString(),
        expires_at: card.expiresAt?.toISOString() ?? null,
      });
    }
    return card;
  }
}

/** The idle device a locked login released, for the work after its commit. */
interface IdleRelease {
  machine?: string;
}
