import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';

export const paymentKeys = { ofProject: (projectId: string) => ['payments', projectId] as const };

/** Each payment provider the project has set up, with its settings (secrets masked) and notify address. */
export function paymentSettingsQuery(projectId: string) {
  return queryOptions({
    queryKey: paymentKeys.ofProject(projectId),
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}/payments', { params: { path: { id: projectId } } })),
  });
}

/** The project's card types, up to the API's page size, for the storefront's list of what is for sale. */
export function storefrontTypesQuery(projectId: string) {
  return queryOptions({
    queryKey: ['card-types', projectId, 'for-sale'],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/projects/{id}/card-types', {
          params: { path: { id: projectId }, query: { page: 1, page_size: 100 } },
        }),
      ),
  });
}

/** Saves a provider's settings (`settingsBody`'s): each provider's own, which the service checks against its fields. */
export function saveProvider(projectId: string, provider: string, settings: Record<string, unknown>) {
  return unwrap(
    api.PUT('/admin/v1/projects/{id}/payments/{provider}', {
      params: { path: { id: projectId, provider } },
      body: settings as never,
    }),
  );
}

export function deleteProvider(projectId: string, provider: string) {
  return unwrap(api.DELETE('/admin/v1/projects/{id}/payments/{provider}', { params: { path: { id: projectId, provider } } }));
}
