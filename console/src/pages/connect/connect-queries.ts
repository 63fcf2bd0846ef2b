import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type ConnectCustomization = Schemas['PutCustomizationDto'];

/** Everything of a project's Connect page: what a change of its customization invalidates. */
export const connectKey = (projectId: string) => ['connect', projectId];

const path = (projectId: string) => ({ params: { path: { id: projectId } } });

export function customizationQuery(projectId: string) {
  return queryOptions({
    queryKey: [...connectKey(projectId), 'customization'],
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}/connect/customization', path(projectId))),
  });
}

/** What a client gets with the saved customization (a POST, but it changes nothing). */
export function previewQuery(projectId: string) {
  return queryOptions({
    queryKey: [...connectKey(projectId), 'preview'],
    queryFn: () => unwrap(api.POST('/admin/v1/projects/{id}/connect/customization/preview', path(projectId))),
  });
}

/** Switches Connect on or off; answers the whole project. */
export function setConnect(projectId: string, enabled: boolean) {
  return unwrap(api.PUT('/admin/v1/projects/{id}/connect', { ...path(projectId), body: { enabled } }));
}

export function saveCustomization(projectId: string, body: ConnectCustomization) {
  return unwrap(api.PUT('/admin/v1/projects/{id}/connect/customization', { ...path(projectId), body }));
}

/** Back to the defaults. */
export function resetCustomization(projectId: string) {
  return unwrap(api.DELETE('/admin/v1/projects/{id}/connect/customization', path(projectId)));
}
