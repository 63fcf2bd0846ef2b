import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ISO_TIME, LOCAL_TIME } from '../http/openapi/api-contract';
import { DataSource } from 'typeorm';
import { createHash } from 'node:crypto';
import { ClientCall } from '../access/client-call';
import { InterfaceGate } from '../access/interface-gate';
import { clientTimes, unixSeconds } from '../common/time';
import { AppConfig } from '../config/app-config';
import { ErrorCode } from '../core/errors/error-code';
import { aboutCard, ServiceError } from '../core/errors/service-error';
import { signLicence } from '../signing/ed25519';
import { ResponseSigner } from '../signing/response-signer';
import { Card } from './card.entity';
import { CardDevice } from './card-device.entity';
import type { OfCard } from './card-info.service';
import { deviceRefusal } from './card-rule';
import { CardGuesses } from './card-guesses';
import { findCardWithFeatures } from './types/card-features';

export interface CheckoutRequest {
  call: ClientCall;
  cardKey: string;
  machine: string;
  ttlSeconds?: number;
}

/** An offline licence as the checkout answers it (decisions §15). */
export class CheckoutData {
  @ApiProperty({ description: 'The signed licence, verified offline with the program key `kid` (docs/protocol.md)' })
  licence!: string;
  @ApiProperty({ description: 'Id of the signing key' }) kid!: string;
  @ApiProperty(LOCAL_TIME) expires_at!: string;
  @ApiProperty(ISO_TIME) expires_at_iso!: string;
  @ApiProperty({ type: 'integer', description: 'Unix seconds' }) valid_until!: number;
}

/**
 * Offline licences (decisions §15): for a device already bound to a card the card rules allow
 * now, a licence signed with the program's key, valid for at most `offline_grace_seconds` and never
 * past the card's expiry. Takes no use; counts as `card_login` (authorization and quota).
 */
@Injectable()
export class CardCheckoutService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly gate: InterfaceGate,
    private readonly signer: ResponseSigner,
    private readonly config: AppConfig,
    private readonly guesses: CardGuesses,
  ) {}

  checkout(request: CheckoutRequest): Promise<OfCard<CheckoutData>> {
    return this.guesses.guard(request.call, () => this.issue(request));
  }

  private async issue({ call, cardKey, machine, ttlSeconds }: CheckoutRequest): Promise<OfCard<CheckoutData>> {
    const { project, signingKey } = call.program;
    if (project.offlineGraceSeconds === 0 || !signingKey) throw new ServiceError(ErrorCode.CHECKOUT_DISABLED);
    await this.gate.admit(call, 'card_login', machine);
    const card = await findCardWithFeatures(this.dataSource.manager, project.id, cardKey);
    if (!card) throw new ServiceError(ErrorCode.CARD_INVALID);
    // The card's timeline shows its offline licences, refused ones too.
    const data = await aboutCard(card.id, () => this.licence(call, card, machine, ttlSeconds));
    return { cardId: card.id, data };
  }

  private async licence(
    { program }: CheckoutRequest['call'],
    card: Card,
    machine: string,
    ttlSeconds: number | undefined,
  ): Promise<CheckoutData> {
    const { project } = program;
    const signingKey = program.signingKey!; // checked by `issue`
    const now = Date.now();
    const bound = await this.dataSource.getRepository(CardDevice).existsBy({ cardId: card.id, machineCode: machine });
    const refusal = deviceRefusal(card, bound, now);
    if (refusal) throw new ServiceError(refusal);

    const issuedAt = unixSeconds(new Date(now));
    const cardExpiresAt = card.expiresAt ? unixSeconds(card.expiresAt) : null;
    const ttl = Math.min(ttlSeconds ?? project.offlineGraceSeconds, project.offlineGraceSeconds);
    const validUntil = Math.min(issuedAt + ttl, cardExpiresAt ?? Number.MAX_SAFE_INTEGER);
    const licence = signLicence(this.signer.privateKey(signingKey), {
      v: 1,
      program_id: project.programId,
      card_id: card.id,
      card_code_sha256: createHash('sha256').update(card.code, 'utf8').digest('hex'),
      machine_id: machine,
      kid: signingKey.kid,
      issued_at: issuedAt,
      valid_until: validUntil,
      card_expires_at: cardExpiresAt,
      features: card.features ?? [],
      trial: card.trial,
    });
    return {
      licence,
      kid: signingKey.kid,
      ...clientTimes(this.config.APP_TIMEZONE, { expires_at: new Date(validUntil * 1000) }),
      valid_until: validUntil,
    };
  }
}
