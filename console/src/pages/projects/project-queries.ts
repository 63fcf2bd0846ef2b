import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type ProjectChange = Schemas['UpdateProjectDto'];
export type ProjectInterface = Schemas['ProjectInterfaceView'];
export type InterfaceSetting = Schemas['ProjectInterfaceDto'];
export const SECRET_NAMES = ['api_secret', 'legacy_secret', 'transport_key'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

export const projectKeys = {
  all: ['projects'] as const,
  list: (page: number, pageSize: number, q: string) => ['projects', 'list', { page, pageSize, q }] as const,
  one: (id: string) => ['projects', 'one', id] as const,
  interfaces: (id: string) => ['projects', id, 'interfaces'],
};

export function projectQuery(id: string) {
  return queryOptions({
    queryKey: projectKeys.one(id),
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}', { params: { path: { id } } })),
  });
}

export function projectListQuery(page: number, pageSize: number, q: string) {
  return queryOptions({
    queryKey: projectKeys.list(page, pageSize, q),
    queryFn: () =>
      unwrap(api.GET('/admin/v1/projects', { params: { query: { page, page_size: pageSize, ...(q ? { q } : {}) } } })),
  });
}

export function createProject(name: string) {
  return unwrap(api.POST('/admin/v1/projects', { body: { name } }));
}

/** Sends only the settings that changed; answers the whole project. */
export function updateProject(id: string, changes: ProjectChange) {
  return unwrap(api.PATCH('/admin/v1/projects/{id}', { params: { path: { id } }, body: changes }));
}

export function deleteProject(id: string) {
  return unwrap(api.DELETE('/admin/v1/projects/{id}', { params: { path: { id } } }));
}

/** Answers the new value, the one time it is shown. */
export function rotateSecret(id: string, name: SecretName) {
  return unwrap(api.POST('/admin/v1/projects/{id}/secrets/{name}/rotate', { params: { path: { id, name } } }));
}

export function interfacesQuery(id: string) {
  return queryOptions({
    queryKey: projectKeys.interfaces(id),
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}/interfaces', { params: { path: { id } } })),
  });
}

export function setInterface(id: string, name: ProjectInterface['name'], setting: InterfaceSetting) {
  return unwrap(api.PUT('/admin/v1/projects/{id}/interfaces/{name}', { params: { path: { id, name } }, body: setting }));
}

/** The newest platform announcements, for the notices an author sees on the projects page. */
export function platformNoticesQuery() {
  return queryOptions({
    queryKey: ['platform', 'announcements', 'notices'],
    queryFn: () => unwrap(api.GET('/admin/v1/platform/announcements', { params: { query: { page: 1, page_size: 20 } } })),
  });
}
