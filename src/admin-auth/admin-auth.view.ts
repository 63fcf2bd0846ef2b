import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ADMIN_ROLE_NAMES, AdminRole } from '../admin-kernel/admin-user.entity';

/** A signed-in admin session: the Bearer token of every admin route, until `expires_at`. */
export class AdminSessionView {
  @ApiProperty({ description: 'Opaque admin token (send as `Authorization: Bearer`)' }) token!: string;
  @ApiProperty({ type: String, format: 'date-time' }) expires_at!: string;
  @ApiProperty({ enum: ADMIN_ROLE_NAMES }) role!: AdminRole;
  @ApiPropertyOptional({
    enum: [true],
    description: 'the platform requires two-factor sign-in and this account has none: it must enrol before anything else',
  })
  two_factor_enrolment_required?: true;
}

/** Who the token belongs to. */
export class AdminIdentityView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() username!: string;
  @ApiProperty({ enum: ADMIN_ROLE_NAMES }) role!: AdminRole;
  @ApiProperty({ description: 'the account signs in with a TOTP code' }) two_factor_enabled!: boolean;
  @ApiProperty({ description: 'the platform requires two-factor sign-in of every admin account' }) two_factor_required!: boolean;
  @ApiProperty({ description: 'ISO 4217 code of every amount in cents (the CURRENCY setting)', example: 'CNY' })
  currency!: string;
}
