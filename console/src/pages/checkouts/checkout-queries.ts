import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type Checkout = Schemas['CheckoutView'];
export type CheckoutStatus = Checkout['status'];
export type Refusal = Schemas['PaymentRefusalView'];

/** A page of the project's checkouts, newest first; all statuses, or one. */
export function checkoutListQuery(
  projectId: string,
  status: CheckoutStatus | undefined,
  paging: { page: number; page_size: number },
) {
  return queryOptions({
    queryKey: ['checkouts', projectId, 'list', status, paging],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/projects/{id}/checkouts', {
          params: { path: { id: projectId }, query: { ...paging, ...(status ? { status } : {}) } },
        }),
      ),
  });
}

/** A page of the refused gateway notifications, newest first: all of them, or one checkout's. */
export function refusalListQuery(projectId: string, checkoutId: string | undefined, paging: { page: number; page_size: number }) {
  return queryOptions({
    queryKey: ['checkouts', projectId, 'refusals', checkoutId, paging],
    queryFn: () =>
      unwrap(
        api.GET('/admin/v1/projects/{id}/payment-refusals', {
          params: { path: { id: projectId }, query: { ...paging, ...(checkoutId ? { checkout_id: checkoutId } : {}) } },
        }),
      ),
  });
}
