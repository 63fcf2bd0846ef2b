import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ClientCall } from '../../access/client-call';
import { InterfaceGate } from '../../access/interface-gate';
import { CardDevice } from '../../cards/card-device.entity';
import { CardGuesses } from '../../cards/card-guesses';
import { CardLoginService } from '../../cards/card-login.service';
import { CardUnbindService, unbindData } from '../../cards/card-unbind.service';
import { Card } from '../../cards/card.entity';
import { cardRefusal, clientExpiryTimes, deviceRefusal, isCardExpired, isNoCard } from '../../cards/card-rule';
import { AppConfig } from '../../config/app-config';
import { ClientReply } from '../../http/envelope/render';
import { ErrorCode } from '../../core/errors/error-code';
import { aboutCard, ServiceError } from '../../core/errors/service-error';
import { LegacyCardLogin, LegacyCardState, LegacyPaycheck } from '../legacy-answers';

/**
 * The legacy family's card operations, shared by the dedicated routes and the aggregate entry:
 * login and unbind through the one card-login and card-unbind rules, and the read-only state and
 * payment checks (which renew, bind and activate nothing).
 */
@Injectable()
export class LegacyCardsService {
  constructor(
    private readonly cardLogin: CardLoginService,
    private readonly cardUnbind: CardUnbindService,
    private readonly gate: InterfaceGate,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly guesses: CardGuesses,
  ) {}

  login(call: ClientCall, cardKey: string, machine: string): Promise<ClientReply> {
    return this.cardLogin.answer({ call, cardKey, machine }, ({ card, token }) => ({
      message: 'Login successful',
      data: {
        token,
        id: card.id,
        code: card.code,
        machine_code: machine,
        ...this.expiry(card),
        device_limit: card.deviceLimit,
        features: card.features ?? [],
        trial: card.trial,
      } satisfies LegacyCardLogin,
    }));
  }

  async unbind(call: ClientCall, cardKey: string, machine: string): Promise<ClientReply> {
    const card = await this.cardUnbind.unbind({ call, cardKey, machine });
    return {
      message: 'Device unbound',
      data: unbindData(card, machine, this.config.APP_TIMEZONE),
      cardId: card.id,
    };
  }

  /**
   * `/api/check` (decisions §16): `code: 1`, with the state in `data`, only when the card would let
   * this device in right now (active, not banned, not expired, the device bound); otherwise the
   * refusal: CARD_INVALID, CARD_BANNED, CARD_EXPIRED (the one card-state rule), or DEVICE_NOT_BOUND
   * for a card never activated or a device not bound to it. Renews, binds and activates nothing.
   */
  check(call: ClientCall, cardKey: string, machine: string): Promise<ClientReply> {
    return this.guesses.guard(call, () => this.checked(call, cardKey, machine));
  }

  private async checked(call: ClientCall, cardKey: string, machine: string): Promise<ClientReply> {
    await this.gate.admit(call, 'state_check', machine);
    const card = await this.find(call, cardKey);
    return aboutCard(card.id, () => this.stateOf(card, machine)); // refused checks show on the card's timeline too
  }

  private async stateOf(card: Card, machine: string): Promise<ClientReply> {
    const now = Date.now();
    const devices = await this.dataSource.getRepository(CardDevice).findBy({ cardId: card.id });
    const deviceBound = devices.some((d) => d.machineCode === machine);
    const refusal = deviceRefusal(card, deviceBound, now);
    if (refusal === ErrorCode.DEVICE_NOT_BOUND && card.status === 'unused')
      throw new ServiceError(refusal, 'The card has not been activated yet; log in with it first');
    if (refusal) throw new ServiceError(refusal);
    return {
      message: 'Card state',
      data: {
        status: card.status,
        activated: true,
        expired: isCardExpired(card, now),
        ...this.expiry(card),
        device_bound: deviceBound,
        devices: devices.length,
        device_limit: card.deviceLimit,
        trial: card.trial,
      } satisfies LegacyCardState,
      cardId: card.id,
    };
  }

  /** `/api/paycheck`: is the card activated, and valid (activated, not banned, not expired). */
  paycheck(call: ClientCall, cardKey: string): Promise<ClientReply> {
    return this.guesses.guard(call, () => this.paychecked(call, cardKey));
  }

  private async paychecked(call: ClientCall, cardKey: string): Promise<ClientReply> {
    await this.gate.admit(call, 'paycheck');
    const card = await this.find(call, cardKey);
    const activated = card.status !== 'unused';
    return {
      message: 'Payment check',
      data: {
        activated,
        valid: activated && cardRefusal(card) === null,
        ...(activated ? this.expiry(card) : { expires_at: null, expires_at_iso: null }),
      } satisfies LegacyPaycheck,
      cardId: card.id,
    };
  }

  /** The card the key names; the answers carry its id, for the card's timeline. */
  private async find({ program }: ClientCall, cardKey: string): Promise<Card> {
    const card = await this.dataSource.getRepository(Card).findOneBy({ projectId: program.project.id, code: cardKey });
    // A consumed top-up card is no card (decisions §13), nor an unsold stock card (§26).
    if (!card || isNoCard(card)) throw new ServiceError(ErrorCode.CARD_INVALID);
    return card;
  }

  private expiry(card: Card): { expires_at: string; expires_at_iso: string } {
    return clientExpiryTimes(card, this.config.APP_TIMEZONE);
  }
}
