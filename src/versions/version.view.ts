import { ApiProperty } from '@nestjs/swagger';
import { AppVersion } from './version.entity';

/** The admin API's version resource. */
export class VersionView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ description: 'dotted numbers, e.g. 1.2.10' }) version!: string;
  @ApiProperty() changelog!: string;
  @ApiProperty() force_update!: boolean;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'an uploaded file clients download through a signed address',
  })
  file_id!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'an external address, when no file is attached' }) download_url!:
    string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at!: string;
}

export function toVersionView(v: AppVersion): VersionView {
  return {
    id: v.id,
    version: v.version,
    changelog: v.changelog,
    force_update: v.forceUpdate,
    enabled: v.enabled,
    file_id: v.fileId,
    download_url: v.downloadUrl,
    created_at: v.createdAt.toISOString(),
    updated_at: v.updatedAt.toISOString(),
  };
}
