import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { AnnouncementStore } from '../../components/AnnouncementsEditor';

export type Author = Schemas['AuthorView'];
export type NewAuthor = Schemas['CreateAuthorDto'];
export type AuthorChange = Schemas['UpdateAuthorDto'];
export type Backup = Schemas['BackupView'];
export type PlatformSettingsChange = Schemas['UpdatePlatformSettingsDto'];
export type PlatformInterface = Schemas['PlatformInterfaceView'];

export const authorKeys = { all: ['authors'] as const };
export const platformKeys = {
  backups: ['platform', 'backups'],
  settings: ['platform', 'settings'],
  interfaces: ['platform', 'interfaces'],
};

export function authorListQuery(q: string, page: number, pageSize: number) {
  return queryOptions({
    queryKey: [...authorKeys.all, q, page, pageSize],
    queryFn: () =>
      unwrap(api.GET('/admin/v1/authors', { params: { query: { ...(q ? { q } : {}), page, page_size: pageSize } } })),
    placeholderData: (previous) => previous,
  });
}

export const createAuthor = (author: NewAuthor) => unwrap(api.POST('/admin/v1/authors', { body: author }));

export const updateAuthor = (id: string, change: AuthorChange) =>
  unwrap(api.PATCH('/admin/v1/authors/{id}', { params: { path: { id } }, body: change }));

/** A quota field of a form: empty means unlimited (null), as the API has it. */
export const quotaValue = (value: number | null | undefined): number | null => (typeof value === 'number' ? value : null);

/** The service's backups, newest first. */
export function backupListQuery() {
  return queryOptions({ queryKey: platformKeys.backups, queryFn: () => unwrap(api.GET('/admin/v1/platform/backups')) });
}

export const makeBackup = (withoutLogs: boolean) =>
  unwrap(api.POST('/admin/v1/platform/backups', { body: { without_logs: withoutLogs } }));

/** The archive itself, through the API: it needs the Bearer token (and, with two-factor sign-in, a fresh code). */
export const downloadBackup = (id: string) =>
  unwrap(api.GET('/admin/v1/platform/backups/{id}/download', { params: { path: { id } }, parseAs: 'blob' }));

export const deleteBackup = (id: string) => unwrap(api.DELETE('/admin/v1/platform/backups/{id}', { params: { path: { id } } }));

export function platformSettingsQuery() {
  return queryOptions({ queryKey: platformKeys.settings, queryFn: () => unwrap(api.GET('/admin/v1/platform/settings')) });
}

export const savePlatformSettings = (settings: PlatformSettingsChange) =>
  unwrap(api.PUT('/admin/v1/platform/settings', { body: settings }));

export function platformInterfacesQuery() {
  return queryOptions({ queryKey: platformKeys.interfaces, queryFn: () => unwrap(api.GET('/admin/v1/platform/interfaces')) });
}

/** Switches a client interface on or off platform-wide. */
export const setPlatformInterface = (name: PlatformInterface['name'], enabled: boolean) =>
  unwrap(api.PUT('/admin/v1/platform/interfaces/{name}', { params: { path: { name } }, body: { enabled } }));

const announcement = (id: number) => ({ params: { path: { id } } });

/** The platform's announcements to authors (a platform admin sees hidden ones too). */
export const platformAnnouncements: AnnouncementStore = {
  queryKey: ['platform', 'announcements'],
  list: () => unwrap(api.GET('/admin/v1/platform/announcements', { params: { query: { page: 1, page_size: 100 } } })),
  create: (body) => unwrap(api.POST('/admin/v1/platform/announcements', { body })),
  update: (id, body) => unwrap(api.PATCH('/admin/v1/platform/announcements/{id}', { ...announcement(id), body })),
  remove: (id) => unwrap(api.DELETE('/admin/v1/platform/announcements/{id}', announcement(id))),
};
