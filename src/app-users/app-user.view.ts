import { ApiProperty } from '@nestjs/swagger';
import { clientTimes } from '../common/time';
import { ISO_TIME, LOCAL_TIME } from '../http/openapi/api-contract';
import { APP_USER_STATUSES, AppUser, AppUserStatus } from './app-user.entity';

/** The profile a client sees at login: times in the service time zone (decisions §1). */
export class AppUserProfile {
  @ApiProperty({ type: 'integer' }) user_id!: number;
  @ApiProperty() username!: string;
  @ApiProperty({ enum: APP_USER_STATUSES }) status!: AppUserStatus;
  @ApiProperty(LOCAL_TIME) created_at!: string;
  @ApiProperty(ISO_TIME) created_at_iso!: string;
  @ApiProperty({ ...LOCAL_TIME, nullable: true }) last_login_at!: string | null;
  @ApiProperty({ ...ISO_TIME, nullable: true }) last_login_at_iso!: string | null;
}

/** The admin API's program-user resource (decisions §11): ISO times, never the password hash. */
export class AppUserView {
  @ApiProperty({ type: 'integer' }) user_id!: number;
  @ApiProperty() username!: string;
  @ApiProperty({ enum: APP_USER_STATUSES }) status!: AppUserStatus;
  @ApiProperty({ type: String, nullable: true, description: 'the bound machine; null: none' }) machine_id!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_login_at!: string | null;
}

export function toProfile(user: AppUser, timeZone: string): AppUserProfile {
  return {
    user_id: user.id,
    username: user.username,
    status: user.status,
    ...clientTimes(timeZone, { created_at: user.createdAt, last_login_at: user.lastLoginAt ?? null }),
  };
}

export function toAppUserView(user: AppUser): AppUserView {
  return {
    user_id: user.id,
    username: user.username,
    status: user.status,
    machine_id: user.boundMachineId,
    created_at: user.createdAt.toISOString(),
    last_login_at: user.lastLoginAt ? user.lastLoginAt.toISOString() : null,
  };
}
