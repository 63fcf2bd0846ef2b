import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type CardType = Schemas['CardTypeView'];
export type NewCardType = Schemas['CreateCardTypeDto'];
export type CardTypeChanges = Schemas['UpdateCardTypeDto'];

export const cardTypeKeys = { ofProject: (projectId: string) => ['card-types', projectId] as const };

/** The project's types, up to the API's page size: enough for a name per card and a choice per batch. */
export function cardTypesQuery(projectId: string) {
  return queryOptions({
    queryKey: cardTypeKeys.ofProject(projectId),
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/projects/{id}/card-types', {
          params: { path: { id: projectId }, query: { page: 1, page_size: 100 } },
        }),
      ),
  });
}

/** One page of the types, as the card types page lists them. */
export function cardTypePageQuery(projectId: string, paging: { page: number; page_size: number }) {
  return queryOptions({
    queryKey: [...cardTypeKeys.ofProject(projectId), 'page', paging],
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}/card-types', { params: { path: { id: projectId }, query: paging } })),
    placeholderData: (previous) => previous,
  });
}

export function createCardType(projectId: string, body: NewCardType) {
  return unwrap(api.POST('/admin/v1/projects/{id}/card-types', { params: { path: { id: projectId } }, body }));
}

export function updateCardType(projectId: string, typeId: number, changes: CardTypeChanges) {
  return unwrap(
    api.PATCH('/admin/v1/projects/{id}/card-types/{typeId}', { params: { path: { id: projectId, typeId } }, body: changes }),
  );
}

export function deleteCardType(projectId: string, typeId: number) {
  return unwrap(api.DELETE('/admin/v1/projects/{id}/card-types/{typeId}', { params: { path: { id: projectId, typeId } } }));
}
