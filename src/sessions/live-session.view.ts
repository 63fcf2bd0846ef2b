import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsDeviceCode } from '../common/field-rules';
import { MAX_INT32 } from '../common/limits';
import { decimalInteger, PageQuery } from '../common/paging';
import { SessionType } from './session.entity';

export const SESSION_TYPES = ['card', 'app_user'] as const satisfies readonly SessionType[];

/** Filters of the live-session list; each narrows the list (all of them together). */
export class ListSessionsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: SESSION_TYPES })
  @IsOptional()
  @IsIn(SESSION_TYPES)
  type?: SessionType;

  @ApiPropertyOptional({ type: 'integer' })
  @IsOptional()
  @Transform(decimalInteger)
  @IsInt()
  @Min(1)
  @Max(MAX_INT32)
  card_id?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'program user id' })
  @IsOptional()
  @Transform(decimalInteger)
  @IsInt()
  @Min(1)
  @Max(MAX_INT32)
  user_id?: number;

  @ApiPropertyOptional({ description: 'exact device code' })
  @IsOptional()
  @IsDeviceCode()
  machine_id?: string;
}

/** A live SDK session as the admin API shows it: never its token nor the token's hash. */
export class LiveSessionView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ enum: SESSION_TYPES }) type!: SessionType;
  @ApiProperty({ type: 'integer', nullable: true, description: 'card sessions: the card' }) card_id!: number | null;
  @ApiProperty({ type: String, nullable: true, description: "card sessions: the card's code; null when the card was deleted" })
  card_code!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'program-user sessions: the user' }) user_id!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'program-user sessions: the user name; null when the user was deleted',
  })
  username!: string | null;
  @ApiProperty({ description: 'the device the session was opened on' }) machine_id!: string;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    description:
      'the login, or the last heartbeat that extended the session (heartbeats in the first half of its lifetime are not written)',
  })
  last_seen_at!: string;
  @ApiProperty({ type: String, format: 'date-time' }) expires_at!: string;
  @ApiProperty({ description: 'the client address of the login, then of the last recorded heartbeat (empty when unknown)' })
  address!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'the last heartbeat, recorded at most once a minute (so at most a minute late); null: none recorded since the login',
  })
  last_heartbeat_at!: string | null;
}

/** Live sessions of a project by type. */
export class LiveSessionCounts {
  @ApiProperty({ type: 'integer' }) card!: number;
  @ApiProperty({ type: 'integer' }) app_user!: number;
}
