import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ClientCall } from '../access/client-call';
import { InterfaceGate } from '../access/interface-gate';
import { clientTimes } from '../common/time';
import { AppConfig } from '../config/app-config';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { ApiProperty } from '@nestjs/swagger';
import { ISO_TIME, LOCAL_TIME } from '../http/openapi/api-contract';
import { Card, CARD_KINDS, CARD_STATUSES, CardKind, CardStatus } from './card.entity';
import { clientExpiryTimes, isNoCard } from './card-rule';
import { CardGuesses } from './card-guesses';
import { findCardWithFeatures } from './types/card-features';
import { FEATURES_PROPERTY, TRIAL_PROPERTY } from './card-data';
import { CardDevicesRepository } from './card-devices.repository';
import { CardUnbindsRepository } from './card-unbinds.repository';
import { UNBIND_REFUSAL_REASONS, unbindRefusal, type UnbindRefusalReason } from './rebinding-rules';

/** The state of a card as its holder sees it, after a top-up too. */
export class CardSummary {
  @ApiProperty({ enum: CARD_KINDS }) kind!: CardKind;
  @ApiProperty({ enum: CARD_STATUSES }) status!: CardStatus;
  @ApiProperty({ ...LOCAL_TIME, nullable: true, description: 'null until the first login starts the card' }) expires_at!:
    string | null;
  @ApiProperty({ ...ISO_TIME, nullable: true }) expires_at_iso!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'count cards: logins left' }) uses_left!: number | null;
}

export class CardHolderDevice {
  @ApiProperty() machine_code!: string;
  @ApiProperty(LOCAL_TIME) bound_at!: string;
  @ApiProperty(ISO_TIME) bound_at_iso!: string;
  @ApiProperty({ ...LOCAL_TIME, nullable: true, description: 'last successful login of this device' }) last_login_at!:
    string | null;
  @ApiProperty({ ...ISO_TIME, nullable: true }) last_login_at_iso!: string | null;
  @ApiProperty({ ...LOCAL_TIME, description: 'last login or heartbeat of this device (heartbeats counted to the minute)' })
  last_seen_at!: string;
  @ApiProperty(ISO_TIME) last_seen_at_iso!: string;
}

export class CardUnbindTerms {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: 'integer', description: 'seconds an unbind takes off a dated expiry' }) deduct_seconds!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'unbinds left; null: unlimited' }) remaining!: number | null;
  @ApiProperty({ type: 'integer', description: 'seconds between two unbinds of this card (0: none)' }) cooldown_seconds!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'unbinds of this card in any 30 days; null: unlimited' })
  max_per_30_days!: number | null;
  @ApiProperty({ type: 'integer', description: 'unbinds of this card in the last 30 days' }) used_30_days!: number;
  @ApiProperty({
    enum: UNBIND_REFUSAL_REASONS.filter((r) => r !== 'not_bound'),
    nullable: true,
    description: 'why an unbind would be refused now; null: it would be granted',
  })
  refused_reason!: UnbindRefusalReason | null;
  @ApiProperty({
    ...LOCAL_TIME,
    nullable: true,
    description: 'when the next unbind is possible; null: now, or never (see refused_reason)',
  })
  next_unbind_at!: string | null;
  @ApiProperty({ ...ISO_TIME, nullable: true }) next_unbind_at_iso!: string | null;
}

/** What a card holder sees of their card (decisions §14), times in the service's local time. */
export class CardInfo extends CardSummary {
  @ApiProperty(FEATURES_PROPERTY) features!: string[];
  @ApiProperty(TRIAL_PROPERTY) trial!: boolean;
  @ApiProperty({ ...LOCAL_TIME, nullable: true }) activated_at!: string | null;
  @ApiProperty({ ...ISO_TIME, nullable: true }) activated_at_iso!: string | null;
  @ApiProperty({ type: 'integer' }) device_limit!: number;
  @ApiProperty({ type: 'integer', nullable: true }) concurrent_limit!: number | null;
  @ApiProperty({ type: [CardHolderDevice] }) devices!: CardHolderDevice[];
  @ApiProperty({ type: CardUnbindTerms }) unbind!: CardUnbindTerms;
}

/** A target card after a top-up, as the card holder sees it. */
export class CardAfterTopup extends CardSummary {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() code!: string;
}

/**
 * The card holder's view of a card (the SDK route and the portal): state, uses, seats, bound
 * devices with their last successful login, what an unbind would cost and when the rebinding rules
 * allow the next (decisions §21). Shown for a banned or
 * expired card too (the holder learns why it stopped); a consumed top-up card is no card.
 */
/** What a card operation answers, with the card it acted on (the request log's per-card timeline). */
export interface OfCard<T> {
  cardId: number;
  data: T;
}

@Injectable()
export class CardInfoService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly gate: InterfaceGate,
    private readonly config: AppConfig,
    private readonly guesses: CardGuesses,
  ) {}

  /** The card's id comes along: the HTTP layer shows the lookup on the card's timeline. */
  info(call: Pick<ClientCall, 'program' | 'family' | 'ip' | 'context'>, cardKey: string): Promise<OfCard<CardInfo>> {
    return this.guesses.guard(call, () => this.lookedUp(call, cardKey));
  }

  private async lookedUp(call: Pick<ClientCall, 'program' | 'family' | 'context'>, cardKey: string): Promise<OfCard<CardInfo>> {
    await this.gate.admit(call, 'card_info');
    const { project } = call.program;
    const card = await findCardWithFeatures(this.dataSource.manager, project.id, cardKey);
    if (!card || isNoCard(card)) throw new ServiceError(ErrorCode.CARD_INVALID);
    const devices = await CardDevicesRepository.in(this.dataSource).withLastLogins(card.id);
    const now = new Date();
    const recent = await CardUnbindsRepository.in(this.dataSource).recent(card.id, now);
    const refusal = unbindRefusal(project, card.unbindCount, recent, now);
    const info: CardInfo = {
      ...this.summary(card),
      features: card.features ?? [],
      trial: card.trial,
      ...this.times({ activated_at: card.activatedAt }),
      device_limit: card.deviceLimit,
      concurrent_limit: card.concurrentLimit,
      devices: devices.map((d) => ({
        machine_code: d.machine_code,
        ...this.times({ bound_at: new Date(d.bound_at), last_login_at: d.last_login_at && new Date(d.last_login_at) }),
        ...this.times({ last_seen_at: new Date(d.last_seen_at) }),
      })),
      unbind: {
        enabled: project.unbindEnabled,
        deduct_seconds: project.unbindDeductSeconds,
        remaining: project.unbindMax === null ? null : Math.max(0, project.unbindMax - card.unbindCount),
        cooldown_seconds: project.unbindCooldownSeconds,
        max_per_30_days: project.unbindMaxPer30Days,
        used_30_days: recent.length,
        refused_reason: refusal?.reason ?? null,
        ...this.times({ next_unbind_at: refusal?.retryAt ?? null }),
      },
    };
    return { cardId: card.id, data: info };
  }

  /** A card after a top-up: what changed for the holder. */
  afterTopup(card: Card): CardAfterTopup {
    return { id: card.id, code: card.code, ...this.summary(card) };
  }

  private summary(card: Card): CardSummary {
    return {
      kind: card.kind,
      status: card.status,
      // Not activated yet: no expiry to show (it starts at the first login).
      ...(card.activatedAt ? clientExpiryTimes(card, this.config.APP_TIMEZONE) : { expires_at: null, expires_at_iso: null }),
      uses_left: card.usesLeft,
    };
  }

  private times<T extends Record<string, Date | null>>(times: T) {
    return clientTimes(this.config.APP_TIMEZONE, times);
  }
}
