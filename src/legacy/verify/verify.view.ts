import { BlacklistEntry } from './blacklist-entry.entity';
import { LicenceSite } from './licence-site.entity';

/** The admin API's authorized-site resource. */
export function toSiteView(site: LicenceSite) {
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

export type SiteView = ReturnType<typeof toSiteView>;

/** The admin API's blacklist-entry resource. */
export function toBlacklistView(entry: BlacklistEntry) {
  return { id: entry.id, kind: entry.kind, value: entry.value, created_at: entry.createdAt.toISOString() };
}

export type BlacklistView = ReturnType<typeof toBlacklistView>;
