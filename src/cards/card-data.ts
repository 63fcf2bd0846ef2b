import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { Card } from './card.entity';
import { clientExpiryTimes } from './card-rule';
import { PERMANENT_EXPIRY } from '../common/time';
import { ISO_TIME, LOCAL_TIME } from '../http/openapi/api-contract';

/** The card part of a standard-family login answer (V3 and SDK alike). */
export class StandardCardData {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() code!: string;
  @ApiProperty() machine_code!: string;
  @ApiProperty({ ...LOCAL_TIME, description: `${LOCAL_TIME.description}; ${PERMANENT_EXPIRY} for a card that never expires` })
  expires_at!: string;
  @ApiProperty(ISO_TIME) expires_at_iso!: string;
}

/** How every card answer documents `features` (decisions §19). */
export const FEATURES_PROPERTY: ApiPropertyOptions = {
  type: [String],
  description: "The card type's features (names of 1-32 of [a-z0-9_.-]); [] for a card made without a type",
};

/** How every card answer documents `trial` (decisions §21). */
export const TRIAL_PROPERTY: ApiPropertyOptions = {
  type: Boolean,
  description: "true for a device's trial card (POST /api/v1/cards/trial), false for any other card",
};

/** The card part of a standard-family login answer: the card, its features and whether it is a trial. */
export class StandardCardLoginData extends StandardCardData {
  @ApiProperty(FEATURES_PROPERTY) features!: string[];
  @ApiProperty(TRIAL_PROPERTY) trial!: boolean;
}

/** The top-level fields a standard-family card login answers beside `data` (decisions §3). */
export const LOGIN_EXTRAS: Record<string, SchemaObject> = {
  token: { type: 'string', description: 'The compatible login token' },
  statecode: { type: 'string', description: "The card's status after the login" },
};

export function standardCardData(card: Card, machine: string, timeZone: string): StandardCardData {
  return { id: card.id, code: card.code, machine_code: machine, ...clientExpiryTimes(card, timeZone) };
}

/** A login's card data: `features` as the login read them with the card (card-login.service.ts). */
export function standardCardLoginData(card: Card, machine: string, timeZone: string): StandardCardLoginData {
  return { ...standardCardData(card, machine, timeZone), features: card.features ?? [], trial: card.trial };
}
