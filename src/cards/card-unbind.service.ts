import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { DataSource, EntityManager } from 'typeorm';
import { ClientCall } from '../access/client-call';
import { InterfaceGate } from '../access/interface-gate';
import { ErrorCode } from '../core/errors/error-code';
import { aboutCard, ServiceError } from '../core/errors/service-error';
import { clientTimes } from '../common/time';
import { AppConfig } from '../config/app-config';
import { DomainEvents } from '../events/domain-events';
import { CardSessions } from './card-sessions';
import { CardDevice } from './card-device.entity';
import { Card } from './card.entity';
import { StandardCardData, standardCardData } from './card-data';
import { cardRefusal } from './card-rule';
import { CardGuesses } from './card-guesses';
import { CardUnbindsRepository } from './card-unbinds.repository';
import { UnbindRefusal, unbindRefusal } from './rebinding-rules';

export interface CardUnbindRequest {
  call: Pick<ClientCall, 'program' | 'family' | 'ip' | 'context'>;
  cardKey: string;
  machine: string;
}

/** What an unbind answers, in every family (`data`). */
/** What the unbind rule can refuse with, in every family. */
export const CARD_UNBIND_REFUSALS = [
  ErrorCode.CARD_INVALID,
  ErrorCode.CARD_BANNED,
  ErrorCode.CARD_EXPIRED,
  ErrorCode.UNBIND_REFUSED,
  ErrorCode.RATE_LIMITED,
] as const;

/** What an unbind answers (every family): the card, the device let go, the new expiry. */
export class CardUnbindData extends StandardCardData {
  @ApiProperty({ type: 'integer', description: 'unbinds of this card so far' }) unbind_count!: number;
}

export function unbindData(card: Card, machine: string, timeZone: string): CardUnbindData {
  return { ...standardCardData(card, machine, timeZone), unbind_count: card.unbindCount };
}

/**
 * The one card-unbind rule (decisions §4, §7, §21), for every family and the portal: the
 * `card_unbind` interface gate, the project's switch (`unbind_enabled`), then under a row lock on the
 * card its state, the device's binding and the rebinding rules (rebinding-rules.ts: the lifetime
 * maximum `unbind_max`, the 30-day maximum and the cooldown, over the card's `card_unbinds`). The
 * lock makes them exact: a second unbind of the card waits for the first and then counts it.
 * A granted unbind removes the device, records and counts it, takes `unbind_deduct_seconds` off a
 * dated expiry and ends that device's sessions of the card. A refusal is UNBIND_REFUSED with
 * `data {reason, retry_at}`. The author's unbind (admin API) is not this rule and is not counted.
 */
@Injectable()
export class CardUnbindService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly gate: InterfaceGate,
    private readonly sessions: CardSessions,
    private readonly guesses: CardGuesses,
    private readonly events: DomainEvents,
    private readonly config: AppConfig,
  ) {}

  unbind(request: CardUnbindRequest): Promise<Card> {
    return this.guesses.guard(request.call, () => this.unbound(request));
  }

  private async unbound(request: CardUnbindRequest): Promise<Card> {
    const { project } = request.call.program;
    await this.gate.admit(request.call, 'card_unbind', request.machine);
    if (!project.unbindEnabled) throw this.refused({ reason: 'disabled', retryAt: null });
    const card = await this.dataSource.transaction((em) => this.decide(em, request));
    // After the commit (the embedded database has one connection). A login racing in meanwhile has
    // to bind the device again, which a later unbind handles.
    await this.sessions.revokeWhere(project.id, { cardId: card.id, machine: request.machine }, 'device_unbound');
    return card;
  }

  private async decide(em: EntityManager, request: CardUnbindRequest): Promise<Card> {
    const { project } = request.call.program;
    const card = await em
      .getRepository(Card)
      .createQueryBuilder('c')
      .setLock('pessimistic_write')
      .where('c.project_id = :projectId AND c.code = :code', { projectId: project.id, code: request.cardKey })
      .getOne();
    if (!card) throw new ServiceError(ErrorCode.CARD_INVALID);
    // The card's timeline shows its unbinds, refused ones too.
    return aboutCard(card.id, () => this.unbindFrom(em, request, card));
  }

  private async unbindFrom(em: EntityManager, request: CardUnbindRequest, card: Card): Promise<Card> {
    const { project } = request.call.program;
    const refusal = cardRefusal(card);
    if (refusal) throw new ServiceError(refusal);
    // Thrown refusals roll the removal back.
    const removed = await em.delete(CardDevice, { cardId: card.id, machineCode: request.machine });
    if (!removed.affected) throw this.refused({ reason: 'not_bound', retryAt: null });
    const now = new Date();
    const rules = unbindRefusal(project, card.unbindCount, await CardUnbindsRepository.in(em).recent(card.id, now), now);
    if (rules) throw this.refused(rules);
    await CardUnbindsRepository.in(em).record(card.id, request.machine, now);
    card.unbindCount += 1;
    if (card.expiresAt && project.unbindDeductSeconds > 0)
      card.expiresAt = new Date(card.expiresAt.getTime() - project.unbindDeductSeconds * 1000);
    await em.update(Card, { id: card.id }, { unbindCount: () => 'unbind_count + 1', expiresAt: card.expiresAt });
    await this.events.emit(em, project.id, 'device.unbound', {
      card_id: card.id,
      card_code: card.code,
      machine_code: request.machine,
      by: 'holder',
    });
    return card;
  }

  private refused({ reason, retryAt }: UnbindRefusal): ServiceError {
    return new ServiceError(ErrorCode.UNBIND_REFUSED, REFUSAL_MESSAGES[reason], {
      data: { reason, ...clientTimes(this.config.APP_TIMEZONE, { retry_at: retryAt }) },
    });
  }
}

const REFUSAL_MESSAGES: Record<UnbindRefusal['reason'], string> = {
  disabled: 'Unbinding is switched off for this program',
  limit: 'This card has reached its maximum number of unbinds',
  cooldown: 'This card was unbound too recently; try again later',
  not_bound: 'This device is not bound to the card',
};
