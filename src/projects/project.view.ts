import { ApiProperty } from '@nestjs/swagger';
import { SecretBox } from '../core/crypto/secret-box';
import { connectOpen, ConnectOpeningSettings } from '../platform/connect-opening';
import { CONNECT_OPENING_MODES, ConnectOpeningMode } from '../platform/platform-settings.entity';
import {
  Project,
  PROJECT_STATUSES,
  ProjectStatus,
  SEAT_POLICIES,
  SeatPolicy,
  TRANSPORT_ENCRYPTIONS,
  TransportEncryption,
  USER_MACHINE_POLICIES,
  UserMachinePolicy,
} from './project.entity';
import { maskSecret, SECRET_COLUMNS, SECRET_NAMES, SecretName } from './project-secrets';

const INT = { type: 'integer' } as const;
const NULLABLE_INT = { type: 'integer', nullable: true } as const;
const INSTANT = { type: String, format: 'date-time' } as const;
const SECRET = {
  description: 'Masked (`****` and the last 4 characters), except in the answer that creates the project, which shows it once',
};

/**
 * Whether Connect is open for the project now and by which rule: read-only, so an author (who may not
 * read the platform settings) can be told why, and offered the switch only where it decides.
 */
export class ConnectOpeningView {
  @ApiProperty({
    description: 'Connect logins of this program pass the opening check now (the other checks of the gate still apply)',
  })
  open!: boolean;
  @ApiProperty({
    enum: CONNECT_OPENING_MODES,
    description:
      "the platform's opening mode: base_package (open with the basic package), entitlement (open from the minimum plan level), self_service (the author's switch, connect_enabled)",
  })
  mode!: ConnectOpeningMode;
  @ApiProperty({ ...INT, description: "the platform's minimum plan level (what opens Connect in the entitlement mode)" })
  min_level!: number;
  @ApiProperty({ description: 'the author may switch Connect (PUT /connect): true in the self_service mode only' })
  switchable!: boolean;
}

/** The admin API's project resource: settings by their snake_case names, secrets masked (decisions §11). */
export class ProjectView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'The public program ID clients send as `app`' }) program_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'uuid' }) owner_id!: string;
  @ApiProperty({ enum: PROJECT_STATUSES }) status!: ProjectStatus;
  @ApiProperty({ description: 'Off: every client interface answers VERIFICATION_SWITCH_OFF' }) verification_enabled!: boolean;
  @ApiProperty({ description: 'The standard API basic package (V3, SDK, legacy, portal)' }) basic_package!: boolean;
  @ApiProperty(INT) plan_level!: number;
  @ApiProperty() licence_verify!: boolean;
  @ApiProperty({ ...INT, description: 'Devices a new card may bind' }) device_limit!: number;
  @ApiProperty() unbind_enabled!: boolean;
  @ApiProperty({ ...INT, description: 'Seconds an unbind takes off a dated expiry' }) unbind_deduct_seconds!: number;
  @ApiProperty({ ...NULLABLE_INT, description: 'Unbinds per card; null: unlimited' }) unbind_max!: number | null;
  @ApiProperty({ ...INT, description: 'Seconds between two end-user unbinds of one card; 0: none' })
  unbind_cooldown_seconds!: number;
  @ApiProperty({ ...NULLABLE_INT, description: 'End-user unbinds of one card in any 30 days; null: unlimited' })
  unbind_max_per_30_days!: number | null;
  @ApiProperty({ ...INT, description: 'A device silent this long frees its slot to a new device; 0: off' })
  device_idle_release_seconds!: number;
  @ApiProperty({ ...NULLABLE_INT, description: 'The card type trial cards are made from; null: trials off' })
  trial_card_type_id!: number | null;
  @ApiProperty(INT) session_ttl_seconds!: number;
  @ApiProperty(INT) heartbeat_interval_seconds!: number;
  @ApiProperty({ enum: USER_MACHINE_POLICIES }) user_machine_policy!: UserMachinePolicy;
  @ApiProperty({ enum: TRANSPORT_ENCRYPTIONS }) transport_encryption!: TransportEncryption;
  @ApiProperty({ type: [String] }) ip_bindings!: string[];
  @ApiProperty({
    description: "the author's self-service Connect switch; it decides only in the self_service mode (see connect_opening)",
  })
  connect_enabled!: boolean;
  @ApiProperty({ type: ConnectOpeningView }) connect_opening!: ConnectOpeningView;
  @ApiProperty({ description: 'Client answers carry the Ed25519 signature headers' }) response_signing!: boolean;
  @ApiProperty({ ...INT, description: 'Longest offline licence; 0: checkout off' }) offline_grace_seconds!: number;
  @ApiProperty({ ...NULLABLE_INT, description: 'Live sessions per card; null: unlimited' }) concurrent_limit!: number | null;
  @ApiProperty({ enum: SEAT_POLICIES }) seat_policy!: SeatPolicy;
  @ApiProperty() portal_enabled!: boolean;
  @ApiProperty({ ...INT, description: 'Card keys matching no card one address may send a minute before RATE_LIMITED' })
  card_guess_limit_per_minute!: number;
  @ApiProperty(SECRET) api_secret!: string;
  @ApiProperty(SECRET) legacy_secret!: string;
  @ApiProperty(SECRET) transport_key!: string;
  @ApiProperty(INSTANT) created_at!: string;
  @ApiProperty(INSTANT) updated_at!: string;
}

export class RotatedSecret {
  @ApiProperty({ enum: SECRET_NAMES }) name!: SecretName;
  @ApiProperty({ description: 'The new secret, shown once' }) value!: string;
}

export function toProjectView(
  project: Project,
  box: SecretBox,
  platform: ConnectOpeningSettings,
  revealed?: Record<SecretName, string>,
): ProjectView {
  const secrets = Object.fromEntries(
    SECRET_NAMES.map((name) => [name, revealed?.[name] ?? maskSecret(box.decrypt(project[SECRET_COLUMNS[name]]))]),
  ) as Record<SecretName, string>;
  return {
    id: project.id,
    program_id: project.programId,
    name: project.name,
    owner_id: project.ownerId,
    status: project.status,
    verification_enabled: project.verificationEnabled,
    basic_package: project.basicPackage,
    plan_level: project.planLevel,
    licence_verify: project.licenceVerify,
    device_limit: project.deviceLimit,
    unbind_enabled: project.unbindEnabled,
    unbind_deduct_seconds: project.unbindDeductSeconds,
    unbind_max: project.unbindMax,
    unbind_cooldown_seconds: project.unbindCooldownSeconds,
    unbind_max_per_30_days: project.unbindMaxPer30Days,
    device_idle_release_seconds: project.deviceIdleReleaseSeconds,
    trial_card_type_id: project.trialCardTypeId,
    session_ttl_seconds: project.sessionTtlSeconds,
    heartbeat_interval_seconds: project.heartbeatIntervalSeconds,
    user_machine_policy: project.userMachinePolicy,
    transport_encryption: project.transportEncryption,
    ip_bindings: project.ipBindings,
    connect_enabled: project.connectEnabled,
    connect_opening: {
      open: connectOpen(platform, project),
      mode: platform.connect_opening_mode,
      min_level: platform.connect_min_level,
      switchable: platform.connect_opening_mode === 'self_service',
    },
    response_signing: project.responseSigning,
    offline_grace_seconds: project.offlineGraceSeconds,
    concurrent_limit: project.concurrentLimit,
    seat_policy: project.seatPolicy,
    portal_enabled: project.portalEnabled,
    card_guess_limit_per_minute: project.cardGuessLimitPerMinute,
    ...secrets,
    created_at: project.createdAt.toISOString(),
    updated_at: project.updatedAt.toISOString(),
  };
}
