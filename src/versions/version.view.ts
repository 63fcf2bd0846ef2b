import { AppVersion } from './version.entity';

/** The admin API's version resource. */
export function toVersionView(v: AppVersion) {
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

export type VersionView = ReturnType<typeof toVersionView>;
