import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ClientCall } from '../access/client-call';
import { InterfaceGate } from '../access/interface-gate';
import { MAX_INT32 } from '../common/limits';
import { ErrorCode } from '../core/errors/error-code';
import { aboutCard, ServiceError } from '../core/errors/service-error';
import { DomainEvents } from '../events/domain-events';
import { Card } from './card.entity';
import { cardRefusal, isNoCard } from './card-rule';
import { CardGuesses, CardKeyMiss } from './card-guesses';

export interface CardTopupRequest {
  call: Pick<ClientCall, 'program' | 'family' | 'ip' | 'context'>;
  cardKey: string;
  topupKey: string;
}

/** What a top-up can be refused with (a banned target is a TOPUP_REFUSED with the reason). */
export const CARD_TOPUP_REFUSALS = [ErrorCode.CARD_INVALID, ErrorCode.TOPUP_REFUSED, ErrorCode.RATE_LIMITED] as const;

const refused = (reason: string) => new ServiceError(ErrorCode.TOPUP_REFUSED, reason);

/**
 * Renewal with a second card (decisions §13), for the SDK route and the portal: an unused card of
 * the same program and kind is consumed. A time card's expiry moves to max(now, expires_at) + the
 * top-up card's duration (an unused target gains the duration instead); a count card gains the
 * top-up card's uses. Both rows are locked in id order, so one top-up card is consumed once
 * whatever races, and two top-ups crossing each other cannot deadlock.
 */
@Injectable()
export class CardTopupService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly gate: InterfaceGate,
    private readonly guesses: CardGuesses,
    private readonly events: DomainEvents,
  ) {}

  /** Both keys are guesses (decisions §23): a card key or a top-up key that matches no card counts. */
  topup(request: CardTopupRequest): Promise<Card> {
    return this.guesses.guard(request.call, () => this.toppedUp(request));
  }

  private async toppedUp(request: CardTopupRequest): Promise<Card> {
    await this.gate.admit(request.call, 'card_topup');
    if (request.cardKey === request.topupKey) throw refused('A card cannot top itself up');
    return this.dataSource.transaction((em) => this.apply(em, request));
  }

  private async apply(em: EntityManager, { call, cardKey, topupKey }: CardTopupRequest): Promise<Card> {
    const rows = await em
      .getRepository(Card)
      .createQueryBuilder('c')
      .setLock('pessimistic_write')
      .where('c.project_id = :projectId AND c.code IN (:...codes)', {
        projectId: call.program.project.id,
        codes: [cardKey, topupKey],
      })
      .orderBy('c.id', 'ASC')
      .getMany();
    const target = rows.find((card) => card.code === cardKey);
    const topup = rows.find((card) => card.code === topupKey);
    if (!target || isNoCard(target)) throw new ServiceError(ErrorCode.CARD_INVALID);
    // The card's timeline shows its top-ups, refused ones too.
    return aboutCard(target.id, () => this.applyTo(em, call, target, topup));
  }

  private async applyTo(em: EntityManager, call: CardTopupRequest['call'], target: Card, topup: Card | undefined): Promise<Card> {
    // One answer for both; only a key that matches no card counts as a guess (decisions §23), not
    // a card a racing top-up has just consumed.
    const notUnused = 'The top-up card is not an unused card of this program';
    if (!topup) throw new CardKeyMiss(ErrorCode.TOPUP_REFUSED, notUnused);
    if (topup.status !== 'unused') throw refused(notUnused);
    if (topup.kind !== target.kind) throw refused(`The top-up card is a ${topup.kind} card; this card is a ${target.kind} card`);
    if (cardRefusal(target) === ErrorCode.CARD_BANNED) throw refused('This card is banned');

    const changes: Partial<Card> = {};
    if (target.kind === 'count') {
      changes.usesLeft = (target.usesLeft ?? 0) + (topup.usesLeft ?? 0);
    } else {
      if (topup.durationSeconds === 0) throw refused('The top-up card carries no time');
      const permanent = target.status === 'unused' ? target.durationSeconds === 0 : target.expiresAt === null;
      if (permanent) throw refused('This card is permanent');
      if (target.status === 'unused') {
        changes.durationSeconds = target.durationSeconds + topup.durationSeconds;
        if (changes.durationSeconds > MAX_INT32) throw refused('This card would run for too long');
      } else {
        const from = Math.max(Date.now(), target.expiresAt!.getTime());
        changes.expiresAt = new Date(from + topup.durationSeconds * 1000);
      }
    }
    await em.update(Card, { id: target.id }, changes);
    await em.update(Card, { id: topup.id }, { status: 'consumed' });
    const card = Object.assign(target, changes);
    await this.events.emit(em, call.program.project.id, 'card.topped_up', {
      card_id: card.id,
      card_code: card.code,
      topup_card_id: topup.id,
      expires_at: card.expiresAt?.toISOString() ?? null,
      uses_left: card.usesLeft,
      duration_seconds: card.durationSeconds,
    });
    return card;
  }
}
