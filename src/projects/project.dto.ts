import { ApiProperty, ApiPropertyOptional, IntersectionType, PartialType, PickType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsIP,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { Optional } from '../common/optional';
import { MAX_INT32 } from '../common/limits';
import { PageQuery } from '../common/paging';
import { SEAT_POLICIES, SeatPolicy, TRANSPORT_ENCRYPTIONS, TransportEncryption } from './project.entity';

export const MAX_OFFLINE_GRACE_SECONDS = 30 * 86400;
/** The column's CHECK (migration 1765400000000). */
export const MAX_CARD_GUESS_LIMIT_PER_MINUTE = 10_000;

/** Settings an author may set on its own project (decisions §7). */
export class ProjectSettingsDto {
  @ApiPropertyOptional({ enum: ['active', 'disabled'] })
  @Optional()
  @IsIn(['active', 'disabled'])
  status?: 'active' | 'disabled';

  @ApiPropertyOptional({ description: 'master verification switch' })
  @Optional()
  @IsBoolean()
  verification_enabled?: boolean;

  @ApiPropertyOptional({ description: 'default device limit of new cards' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(1000)
  device_limit?: number;

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  unbind_enabled?: boolean;

  @ApiPropertyOptional()
  @Optional()
  @IsInt()
  @Min(0)
  @Max(10 * 365 * 86400)
  unbind_deduct_seconds?: number;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'unbinds per card; null = unlimited' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(0)
  @Max(100000)
  unbind_max?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    description: 'seconds between two end-user unbinds of one card (0 = none, at most 30 days)',
  })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(30 * 86400)
  unbind_cooldown_seconds?: number;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: 'end-user unbinds of one card in any 30 days; null = unlimited',
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(0)
  @Max(100000)
  unbind_max_per_30_days?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    description: 'a bound device with no login or heartbeat this long frees its slot to a new device (0 = off; 60 s to 365 days)',
  })
  @Optional()
  @IsInt()
  @ValidateIf((_, v) => v !== 0)
  @Min(60)
  @Max(365 * 86400)
  device_idle_release_seconds?: number;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description:
      "trials: the project's card type each device's one trial card is made from (POST /api/v1/cards/trial); null = off",
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(1)
  @Max(MAX_INT32)
  trial_card_type_id?: number | null;

  @ApiPropertyOptional()
  @Optional()
  @IsInt()
  @Min(30)
  @Max(30 * 86400)
  session_ttl_seconds?: number;

  @ApiPropertyOptional()
  @Optional()
  @IsInt()
  @Min(5)
  @Max(86400)
  heartbeat_interval_seconds?: number;

  @ApiPropertyOptional({ enum: ['rebind', 'locked', 'free'] })
  @Optional()
  @IsIn(['rebind', 'locked', 'free'])
  user_machine_policy?: 'rebind' | 'locked' | 'free';

  @ApiPropertyOptional({
    enum: TRANSPORT_ENCRYPTIONS,
    description: '`aes-gcm` is authenticated; prefer it for new clients (`aes` is CBC, kept for old ones)',
  })
  @Optional()
  @IsIn(TRANSPORT_ENCRYPTIONS)
  transport_encryption?: TransportEncryption;

  @ApiPropertyOptional({ type: [String], description: 'client IPs the program is bound to; empty = any' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsIP(undefined, { each: true })
  ip_bindings?: string[];

  @ApiPropertyOptional({ description: 'self-service Connect switch; only in the self_service opening mode' })
  @Optional()
  @IsBoolean()
  connect_enabled?: boolean;

  @ApiPropertyOptional({ description: 'Ed25519-sign every client-route answer (X-Svc-Response-* headers); default true' })
  @Optional()
  @IsBoolean()
  response_signing?: boolean;

  @ApiPropertyOptional({
    description: 'longest offline licence from /api/v1/cards/checkout, in seconds (0 = off, at most 30 days)',
  })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_OFFLINE_GRACE_SECONDS)
  offline_grace_seconds?: number;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: 'default seat limit of new cards: live SDK card sessions at once; null = unlimited',
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(1)
  @Max(1000)
  concurrent_limit?: number | null;

  @ApiPropertyOptional({
    enum: SEAT_POLICIES,
    description: "an SDK login beyond a card's seats: `refuse` (SEATS_FULL) or `evict_oldest`",
  })
  @Optional()
  @IsIn(SEAT_POLICIES)
  seat_policy?: SeatPolicy;

  @ApiPropertyOptional({ description: 'the card-holder portal (/portal) and its calls; default true' })
  @Optional()
  @IsBoolean()
  portal_enabled?: boolean;

  @ApiPropertyOptional({
    description:
      'card keys matching no card one client address may send in a minute before the card routes answer RATE_LIMITED (1-10000; default 20)',
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_CARD_GUESS_LIMIT_PER_MINUTE)
  card_guess_limit_per_minute?: number;
}

export class CreateProjectDto extends ProjectSettingsDto {
  @ApiProperty({ example: 'My Program' })
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiPropertyOptional({ description: 'platform admins only: the author who owns the project' })
  @Optional()
  @IsUUID()
  owner_id?: string;
}

export class EntitlementsDto {
  @ApiProperty()
  @IsBoolean()
  basic_package: boolean;

  @ApiProperty()
  @IsInt()
  @Min(0)
  @Max(1000)
  plan_level: number;

  @ApiProperty()
  @IsBoolean()
  licence_verify: boolean;
}

/** PATCH: any subset of the settings, the name and the entitlements (those for platform admins only). */
export class UpdateProjectDto extends IntersectionType(
  ProjectSettingsDto,
  PartialType(PickType(CreateProjectDto, ['name'] as const), { skipNullProperties: false }),
  PartialType(EntitlementsDto, { skipNullProperties: false }),
) {}

export class ListProjectsQuery extends PageQuery {
  @ApiPropertyOptional()
  @Optional()
  @IsUUID()
  owner_id?: string;

  @ApiPropertyOptional({ enum: ['active', 'disabled'] })
  @Optional()
  @IsIn(['active', 'disabled'])
  status?: 'active' | 'disabled';

  @ApiPropertyOptional({ description: 'name contains, or exact program ID' })
  @Optional()
  @IsString()
  @Length(1, 100)
  q?: string;
}

export class ProjectInterfaceDto {
  @ApiProperty()
  @IsBoolean()
  authorized: boolean;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'daily quota; null = unlimited' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(0)
  @Max(MAX_INT32)
  daily_quota?: number | null;
}

export class ConnectSwitchDto {
  @ApiProperty()
  @IsBoolean()
  enabled: boolean;
}
