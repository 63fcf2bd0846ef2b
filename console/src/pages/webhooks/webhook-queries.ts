import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type Webhook = Schemas['WebhookView'];
export type Delivery = Schemas['WebhookDeliveryView'];
export type DeliveryAttempt = Schemas['WebhookAttemptView'];
export type NewWebhook = Schemas['CreateWebhookDto'];
export type WebhookChanges = Schemas['UpdateWebhookDto'];

export const webhookKeys = { ofProject: (projectId: string) => ['webhooks', projectId] };

export const deliveriesKey = (projectId: string, webhookId: string) => ['webhook-deliveries', projectId, webhookId];

export function webhookListQuery(projectId: string) {
  return queryOptions({
    queryKey: webhookKeys.ofProject(projectId),
    queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}/webhooks', { params: { path: { id: projectId } } })),
  });
}

export function createWebhook(projectId: string, body: NewWebhook) {
  return unwrap(api.POST('/admin/v1/projects/{id}/webhooks', { params: { path: { id: projectId } }, body }));
}

export function updateWebhook(projectId: string, webhookId: string, changes: WebhookChanges) {
  return unwrap(
    api.PATCH('/admin/v1/projects/{id}/webhooks/{wid}', { params: { path: { id: projectId, wid: webhookId } }, body: changes }),
  );
}

export function deleteWebhook(projectId: string, webhookId: string) {
  return unwrap(api.DELETE('/admin/v1/projects/{id}/webhooks/{wid}', { params: { path: { id: projectId, wid: webhookId } } }));
}

/** Queues a `webhook.test` event to the endpoint, whatever it subscribes to. */
export function testWebhook(projectId: string, webhookId: string) {
  return unwrap(api.POST('/admin/v1/projects/{id}/webhooks/{wid}/test', { params: { path: { id: projectId, wid: webhookId } } }));
}

/** A page of the endpoint's deliveries, newest first. */
export function deliveryListQuery(projectId: string, webhookId: string, paging: { page: number; page_size: number }) {
  return queryOptions({
    queryKey: [...deliveriesKey(projectId, webhookId), paging],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/projects/{id}/webhooks/{wid}/deliveries', {
          params: { path: { id: projectId, wid: webhookId }, query: paging },
        }),
      ),
    // A queued delivery is usually sent within a second or two: look again while one waits.
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === 'pending') ? 2000 : false),
  });
}

export function redeliverDelivery(projectId: string, webhookId: string, deliveryId: string) {
  return unwrap(
    api.POST('/admin/v1/projects/{id}/webhooks/{wid}/deliveries/{did}/redeliver', {
      params: { path: { id: projectId, wid: webhookId, did: deliveryId } },
    }),
  );
}
