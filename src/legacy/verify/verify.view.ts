import { ApiProperty } from '@nestjs/swagger';
import { BLACKLIST_KINDS, BlacklistEntry, BlacklistKind } from './blacklist-entry.entity';
import { LicenceSite } from './licence-site.entity';

/** The admin API's authorized-site resource. */
export class SiteView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ description: 'a host name or *.wildcard' }) domain!: string;
  @ApiProperty({ type: String, nullable: true, description: 'the licence a verification must send; null: none' }) licence!:
    string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expires_at!: string | null;
  @ApiProperty({ type: String, nullable: true }) note!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at!: string;
}

export function toSiteView(site: LicenceSite): SiteView {
  return {
    id: site.id,
    domain: site.domain,
    licence: site.licence,
    expires_at: site.expiresAt?.toISOString() ?? null,
    note: site.note,
    created_at: site.createdAt.toISOString(),
    updated_at: site.updatedAt.toISOString(),
  };
}

/** The admin API's blacklist-entry resource. */
export class BlacklistView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ enum: BLACKLIST_KINDS }) kind!: BlacklistKind;
  @ApiProperty() value!: string;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
}

export function toBlacklistView(entry: BlacklistEntry): BlacklistView {
  return { id: entry.id, kind: entry.kind, value: entry.value, created_at: entry.createdAt.toISOString() };
}
