import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type AppUser = Schemas['AppUserView'];
export type AppUserStatus = AppUser['status'];
export type AppUserChange = Schemas['UpdateAppUserDto'];

/** Every list of a project's program users, whatever its filters and page: what a change invalidates. */
export const appUserKey = (projectId: string) => ['app-users', projectId];

export function appUserListQuery(
  projectId: string,
  q: string,
  status: AppUserStatus | undefined,
  page: number,
  pageSize: number,
) {
  return queryOptions({
    queryKey: [...appUserKey(projectId), q, status, page, pageSize],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/projects/{id}/app-users', {
          params: {
            path: { id: projectId },
            query: { ...(q ? { q } : {}), ...(status ? { status } : {}), page, page_size: pageSize },
          },
        }),
      ),
    placeholderData: (previous) => previous,
  });
}

export function updateAppUser(projectId: string, userId: number, change: AppUserChange) {
  return unwrap(
    api.PATCH('/admin/v1/projects/{id}/app-users/{userId}', {
      params: { path: { id: projectId, userId } },
      // openapi-fetch's body type drops a null-only field (`machine_id: null` unbinds): the schema's own type is the check here.
      body: change as Omit<AppUserChange, 'machine_id'>,
    }),
  );
}
