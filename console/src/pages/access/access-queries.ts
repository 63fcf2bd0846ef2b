import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type Variable = Schemas['RemoteVariableView'];
export type NewVariable = Schemas['CreateRemoteVariableDto'];
export type Site = Schemas['SiteView'];
export type NewSite = Schemas['CreateSiteDto'];
export type BlacklistEntry = Schemas['BlacklistView'];
export type NewBlacklistEntry = Schemas['CreateBlacklistEntryDto'];
export type SigningKey = Schemas['SigningKeyView'];

const project = (projectId: string) => ({ params: { path: { id: projectId } } });
/** Every list of the page shows its first hundred: a project has a handful of each. */
const firstPage = (projectId: string) => ({ params: { path: { id: projectId }, query: { page: 1, page_size: 100 } } });

export function variablesQuery(projectId: string) {
  return queryOptions({
    queryKey: ['variables', projectId],
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}/variables', firstPage(projectId))),
  });
}

export function addVariable(projectId: string, variable: NewVariable) {
  return unwrap(api.POST('/admin/v1/projects/{id}/variables', { ...project(projectId), body: variable }));
}

/** Whether clients may read the variable without signing in. */
export function setVariablePublic(projectId: string, variableId: number, value: boolean) {
  return unwrap(
    api.PATCH('/admin/v1/projects/{id}/variables/{variableId}', {
      params: { path: { id: projectId, variableId } },
      body: { public: value },
    }),
  );
}

export function removeVariable(projectId: string, variableId: number) {
  return unwrap(
    api.DELETE('/admin/v1/projects/{id}/variables/{variableId}', { params: { path: { id: projectId, variableId } } }),
  );
}

export function sitesQuery(projectId: string) {
  return queryOptions({
    queryKey: ['sites', projectId],
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}/sites', firstPage(projectId))),
  });
}

export function addSite(projectId: string, site: NewSite) {
  return unwrap(api.POST('/admin/v1/projects/{id}/sites', { ...project(projectId), body: site }));
}

export function removeSite(projectId: string, siteId: number) {
  return unwrap(api.DELETE('/admin/v1/projects/{id}/sites/{siteId}', { params: { path: { id: projectId, siteId } } }));
}

export function blacklistQuery(projectId: string) {
  return queryOptions({
    queryKey: ['blacklist', projectId],
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}/blacklist', firstPage(projectId))),
  });
}

export function addBlacklistEntry(projectId: string, entry: NewBlacklistEntry) {
  return unwrap(api.POST('/admin/v1/projects/{id}/blacklist', { ...project(projectId), body: entry }));
}

export function removeBlacklistEntry(projectId: string, entryId: number) {
  return unwrap(api.DELETE('/admin/v1/projects/{id}/blacklist/{entryId}', { params: { path: { id: projectId, entryId } } }));
}

export function signingKeysQuery(projectId: string) {
  return queryOptions({
    queryKey: ['signing-keys', projectId],
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}/signing-keys', project(projectId))),
  });
}

/** A new signing key; the current one keeps signing for the default retiring window. */
export function rotateSigningKey(projectId: string) {
  return unwrap(api.POST('/admin/v1/projects/{id}/signing-keys/rotate', { ...project(projectId), body: {} }));
}
