import { ApiProperty } from '@nestjs/swagger';
import { ADMIN_ROLE_NAMES, AdminRole } from './admin-user.entity';

/** A signed-in admin session: the Bearer token of every admin route, until `expires_at`. */
export class AdminSessionView {
  @ApiProperty({ description: 'Opaque admin token (send as `Authorization: Bearer`)' }) token!: string;
  @ApiProperty({ type: String, format: 'date-time' }) expires_at!: string;
  @ApiProperty({ enum: ADMIN_ROLE_NAMES }) role!: AdminRole;
}

/** Who the token belongs to. */
export class AdminIdentityView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() username!: string;
  @ApiProperty({ enum: ADMIN_ROLE_NAMES }) role!: AdminRole;
}
