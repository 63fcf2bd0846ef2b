import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { DataSource, EntityManager } from 'typeorm';
import { ClientCall } from '../../access/client-call';
import { InterfaceGate } from '../../access/interface-gate';
import { AppConfig } from '../../config/app-config';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { CardBatchesService } from '../admin/card-batches.service';
import { FEATURES_PROPERTY, TRIAL_PROPERTY } from '../card-data';
import { CardDevice } from '../card-device.entity';
import { clientExpiryTimes, loginRefusal } from '../card-rule';
import { Card } from '../card.entity';
import { ISO_TIME, LOCAL_TIME } from '../../http/openapi/api-contract';
import { PERMANENT_EXPIRY } from '../../common/time';
import { CardTypesService } from '../types/card-types.service';
import { CardTrialsRepository } from './card-trials.repository';
import { cardFeaturesSql, featuresOf } from '../../database/card-features-sql';

/** What `POST /api/v1/cards/trial` answers (decisions §21). */
export class CardTrialData {
  @ApiProperty({ description: 'The trial card key, already bound to this device: log in with it' }) code!: string;
  @ApiProperty({ ...LOCAL_TIME, description: `${LOCAL_TIME.description}; ${PERMANENT_EXPIRY} for a card that never expires` })
  expires_at!: string;
  @ApiProperty(ISO_TIME) expires_at_iso!: string;
  @ApiProperty({
    description: "The device the card is bound to (the request's machine_id), for the clients' answer check (decisions §17)",
  })
  machine_code!: string;
  @ApiProperty({ ...TRIAL_PROPERTY, enum: [true] }) trial!: boolean;
  @ApiProperty(FEATURES_PROPERTY) features!: string[];
}

/**
 * Trials (decisions §21): each device (project, machine code) gets one card of the project's trial
 * type, for ever. The device's `card_trials` row is claimed first with ON CONFLICT DO NOTHING in
 * the transaction that makes the card: a racing request, on this instance or another, waits on the
 * unique index until the winner commits and then reads the winner's card. A repeat answers that
 * card while it still lets a device log in; afterwards (expired, used up, banned, deleted) TRIAL_USED.
 */
@Injectable()
export class CardTrialsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly gate: InterfaceGate,
    private readonly types: CardTypesService,
    private readonly batches: CardBatchesService,
    private readonly config: AppConfig,
  ) {}

  async trial(call: Pick<ClientCall, 'program' | 'family' | 'context'>, machine: string): Promise<CardTrialData> {
    await this.gate.admit(call, 'card_trial', machine);
    const { project } = call.program;
    const typeId = project.trialCardTypeId;
    if (typeId === null) throw trialsOff();
    const card = await this.dataSource.transaction((em) => this.grant(em, project.id, typeId, machine));
    if (loginRefusal(card) !== null) throw new ServiceError(ErrorCode.TRIAL_USED);
    return {
      code: card.code,
      ...clientExpiryTimes(card, this.config.APP_TIMEZONE),
      machine_code: machine,
      trial: true,
      features: card.features ?? [],
    };
  }

  /** Trials given in a project, for ever (the Overview): one row per device, counted by its index. */
  async count(projectId: string): Promise<number> {
    return CardTrialsRepository.in(this.dataSource).count(projectId);
  }

  /** The device's trial card: made now if the device never had one, else the one it had. */
  private async grant(em: EntityManager, projectId: string, typeId: number, machine: string): Promise<Card> {
    const trials = CardTrialsRepository.in(em);
    const claimed = await trials.claim(projectId, machine);
    if (claimed === null) return this.earlier(em, projectId, machine);

    // A type deleted or disabled since the author chose it: trials are off (the claim rolls back).
    const type = await this.types.usable(projectId, typeId, em).catch((error: unknown) => {
      throw error instanceof ServiceError ? trialsOff() : error;
    });
    const { cards } = await this.batches.createCardsFromType(em, type, 1, { note: `trial: ${machine}`.slice(0, 200) });
    const card = cards[0];
    const now = new Date();
    Object.assign(card, {
      trial: true,
      status: 'active',
      activatedAt: now,
      expiresAt: card.durationSeconds > 0 ? new Date(now.getTime() + card.durationSeconds * 1000) : null,
      features: type.features,
    });
    await em.update(Card, card.id, { trial: true, status: 'active', activatedAt: now, expiresAt: card.expiresAt });
    await em.insert(CardDevice, { cardId: card.id, machineCode: machine, boundAt: now, lastSeenAt: now });
    await trials.setCard(claimed, card.id);
    return card;
  }

  /** The card of an earlier trial, with its features; TRIAL_USED when the author deleted it. */
  private async earlier(em: EntityManager, projectId: string, machine: string): Promise<Card> {
    const { entities, raw } = await em
      .getRepository(Card)
      .createQueryBuilder('c')
      .innerJoin('card_trials', 't', 't.card_id = c.id')
      .addSelect(cardFeaturesSql('c'), 'card_features')
      .where('t.project_id = :projectId AND t.machine_code = :machine', { projectId, machine })
      .getRawAndEntities();
    const card = entities[0];
    if (!card) throw new ServiceError(ErrorCode.TRIAL_USED);
    card.features = featuresOf((raw[0] as Record<string, unknown>).card_features);
    return card;
  }
}

/** Trials off (no trial type, or it was disabled or deleted): the program does not offer this interface (docs/decisions.md). */
function trialsOff(): ServiceError {
  return new ServiceError(ErrorCode.INTERFACE_NOT_AUTHORIZED, 'Trials are switched off for this program', {
    details: ['trial_card_type_id'],
  });
}
