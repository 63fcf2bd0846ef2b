import { ApiProperty } from '@nestjs/swagger';
import { FEATURES_PROPERTY, TRIAL_PROPERTY } from '../cards/card-data';
import { CARD_STATUSES, CardStatus } from '../cards/card.entity';
import { ISO_TIME, LOCAL_TIME } from '../http/openapi/api-contract';

/**
 * The `data` of the legacy family's answers (spec "Legacy routes"; decisions §10, §16), as the
 * services build them (`satisfies` each class) and as the OpenAPI document shows them.
 */

const EXPIRY = { ...LOCAL_TIME, description: `${LOCAL_TIME.description}; the permanent date for a card that never expires` };

export class LegacyCardLogin {
  @ApiProperty({ description: 'The compatible login token (app_config login variables)' }) token!: string;
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() code!: string;
  @ApiProperty() machine_code!: string;
  @ApiProperty(EXPIRY) expires_at!: string;
  @ApiProperty(ISO_TIME) expires_at_iso!: string;
  @ApiProperty({ type: 'integer' }) device_limit!: number;
  @ApiProperty(FEATURES_PROPERTY) features!: string[];
  @ApiProperty(TRIAL_PROPERTY) trial!: boolean;
}

/** `/api/check`: only a card that lets this device in right now answers `code: 1`. */
export class LegacyCardState {
  @ApiProperty({ enum: CARD_STATUSES }) status!: CardStatus;
  @ApiProperty({ enum: [true] }) activated!: boolean;
  @ApiProperty() expired!: boolean;
  @ApiProperty(EXPIRY) expires_at!: string;
  @ApiProperty(ISO_TIME) expires_at_iso!: string;
  @ApiProperty() device_bound!: boolean;
  @ApiProperty({ type: 'integer', description: 'devices bound to the card' }) devices!: number;
  @ApiProperty({ type: 'integer' }) device_limit!: number;
  @ApiProperty(TRIAL_PROPERTY) trial!: boolean;
}

export class LegacyPaycheck {
  @ApiProperty() activated!: boolean;
  @ApiProperty({ description: 'activated, not banned, not expired' }) valid!: boolean;
  @ApiProperty({ ...EXPIRY, nullable: true, description: 'null until the card is activated' }) expires_at!: string | null;
  @ApiProperty({ ...ISO_TIME, nullable: true }) expires_at_iso!: string | null;
}

export class LegacyAnnouncement {
  @ApiProperty({ description: 'The latest announcement, or an empty string' }) announcement!: string;
}

export class LegacyAppConfig {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'remote variables by name' })
  variables!: Record<string, string>;
  @ApiProperty({ description: 'whether the login-only variables are included (a valid login token was sent)' })
  login_variables!: boolean;
}

export class LegacyAppProfile {
  @ApiProperty() program_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) latest_version!: string | null;
  @ApiProperty() announcement!: string;
  @ApiProperty({ type: 'integer' }) heartbeat_interval_seconds!: number;
  @ApiProperty({ type: 'integer', description: 'Unix seconds' }) server_time!: number;
}

export class LegacyFileDownload {
  @ApiProperty({ description: 'A signed download address, valid until expires_at' }) url!: string;
  @ApiProperty(LOCAL_TIME) expires_at!: string;
  @ApiProperty(ISO_TIME) expires_at_iso!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer' }) size!: number;
  @ApiProperty() sha256!: string;
}

export class VerifiedSite {
  @ApiProperty() domain!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expires_at!: string | null;
}

export class LegacyVerification {
  @ApiProperty() domain!: string;
  @ApiProperty({ enum: [true] }) authorized!: true;
  @ApiProperty({ type: VerifiedSite }) site!: VerifiedSite;
  @ApiProperty({ type: 'integer', description: 'Unix seconds' }) server_time!: number;
}
