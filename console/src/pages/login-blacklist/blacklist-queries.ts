import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type LoginBlacklistEntry = Schemas['LoginBlacklistView'];
export type LoginBlacklistKind = LoginBlacklistEntry['kind'];
export type NewLoginBlacklistEntry = Schemas['CreateLoginBlacklistEntryDto'];
export type LoginBlacklistChange = Schemas['UpdateLoginBlacklistEntryDto'];

/** Every list of a project's login blacklist, whatever its kind and page: what a change invalidates. */
export const loginBlacklistKey = (projectId: string) => ['login-blacklist', projectId];

export function loginBlacklistQuery(
  projectId: string,
  kind: LoginBlacklistKind | 'all',
  paging: { page: number; page_size: number },
) {
  return queryOptions({
    queryKey: [...loginBlacklistKey(projectId), kind, paging],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/projects/{id}/login-blacklist', {
          params: {
            path: { id: projectId },
            query: { ...paging, ...(kind === 'all' ? {} : { kind }) },
          },
        }),
      ),
    placeholderData: (previous) => previous,
  });
}

export function addLoginBlacklistEntry(projectId: string, body: NewLoginBlacklistEntry) {
  return unwrap(api.POST('/admin/v1/projects/{id}/login-blacklist', { params: { path: { id: projectId } }, body }));
}

/** What is refused stays: only the note and the expiry change. */
export function updateLoginBlacklistEntry(projectId: string, entryId: number, change: LoginBlacklistChange) {
  return unwrap(
    api.PATCH('/admin/v1/projects/{id}/login-blacklist/{entryId}', {
      params: { path: { id: projectId, entryId } },
      body: change,
    }),
  );
}

export function removeLoginBlacklistEntry(projectId: string, entryId: number) {
  return unwrap(
    api.DELETE('/admin/v1/projects/{id}/login-blacklist/{entryId}', {
      params: { path: { id: projectId, entryId } },
    }),
  );
}
