import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { PageQuery } from '../common/paging';

/** Filters of the audit trail; `from` ≤ at < `to`. */
export class AuditQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'username or account id of who acted' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  actor?: string;

  @ApiPropertyOptional({ description: 'action, or its beginning (e.g. `cards.` or `cards.ban`)' })
  @IsOptional()
  @IsString()
  @Length(1, 80)
  action?: string;

  @ApiPropertyOptional({ description: 'resource type, e.g. `cards`, `secrets`, `platform.settings`' })
  @IsOptional()
  @IsString()
  @Length(1, 40)
  resource_type?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 128)
  resource_id?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  project_id?: string;

  @ApiPropertyOptional({ enum: ['success', 'refused'] })
  @IsOptional()
  @IsIn(['success', 'refused'])
  outcome?: 'success' | 'refused';

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;
}

export class AuditChangesView {
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) before!: Record<string, unknown> | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) after!: Record<string, unknown> | null;
}

/** One row of the trail. Secret fields read `[redacted]`. */
export class AuditEntryView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ type: String, format: 'date-time' }) at!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) actor_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) actor_username!: string | null;
  @ApiProperty({ type: String, nullable: true }) actor_role!: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'the API key the actor acted with (GET /admin/v1/api-keys); null for a signed-in account',
  })
  actor_api_key_id!: string | null;
  @ApiProperty({ description: 'resource type and verb, e.g. `cards.ban`, `secrets.rotate`' }) action!: string;
  @ApiProperty({ enum: ['success', 'refused'] }) outcome!: 'success' | 'refused';
  @ApiProperty({ type: 'integer', nullable: true, description: 'the catalog code of a refusal' }) result_code!: number | null;
  @ApiProperty() resource_type!: string;
  @ApiProperty({ type: String, nullable: true }) resource_id!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) project_id!: string | null;
  @ApiProperty() method!: string;
  @ApiProperty() route!: string;
  @ApiProperty({ type: AuditChangesView, nullable: true }) changes!: AuditChangesView | null;
  @ApiProperty() ip!: string;
  @ApiProperty() request_id!: string;
}

export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'actor_username',
  'actor_role',
  'actor_id',
  'actor_api_key_id',
  'action',
  'outcome',
  'result_code',
  'resource_type',
  'resource_id',
  'project_id',
  'method',
  'route',
  'changes',
  'ip',
  'request_id',
] as const satisfies ReadonlyArray<keyof AuditEntryView>;
