import { ApiProperty } from '@nestjs/swagger';
import { LOGIN_BLACKLIST_KINDS } from '../common/blacklist-matcher';
import { LoginBlacklistEntry } from './login-blacklist-entry.entity';

/** The admin API's login-blacklist entry. */
export class LoginBlacklistView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ enum: LOGIN_BLACKLIST_KINDS }) kind!: string;
  @ApiProperty({ description: 'a device code, or an address or CIDR block (normalized: host bits cleared)' }) value!: string;
  @ApiProperty({ type: String, nullable: true }) note!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null = for good' }) expires_at!: string | null;
  @ApiProperty({ description: 'false once expires_at has passed (an expired entry refuses nothing)' }) active!: boolean;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
}

export function toLoginBlacklistView(entry: LoginBlacklistEntry, now = Date.now()): LoginBlacklistView {
  return {
    id: entry.id,
    kind: entry.kind,
    value: entry.value,
    note: entry.note,
    expires_at: entry.expiresAt?.toISOString() ?? null,
    active: entry.expiresAt === null || entry.expiresAt.getTime() > now,
    created_at: entry.createdAt.toISOString(),
  };
}
