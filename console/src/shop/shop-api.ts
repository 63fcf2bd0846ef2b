import createClient from 'openapi-fetch';
import { unwrap } from '../api/errors';
import type { components, paths } from '../api/schema';

export type Catalogue = components['schemas']['StorefrontCatalogView'];
export type CatalogueType = Catalogue['card_types'][number];
export type CheckoutRequest = components['schemas']['CreateCheckoutDto'];
export type CheckoutStatus = components['schemas']['CheckoutStatusView'];

/** The storefront's own client: the public shop routes only, no admin token ever. */
const client = createClient<paths>({ baseUrl: window.location.origin });

/** The program id of `/shop/<program id>` or `/shop/<program id>/return`. */
export const pageProgramId = (): string => /^\/shop\/(\d{8})(?:\/|$)/.exec(window.location.pathname)?.[1] ?? '';

/** Whether this is the return page, where the payment provider sends the buyer back. */
export const isReturnPage = (): boolean => /^\/shop\/\d{8}\/return\/?$/.test(window.location.pathname);

export const fetchCatalogue = (programId: string): Promise<Catalogue> =>
  unwrap(client.GET('/shop/api/{program_id}', { params: { path: { program_id: programId } } }));

export const createCheckout = (programId: string, body: CheckoutRequest) =>
  unwrap(client.POST('/shop/api/{program_id}/checkouts', { params: { path: { program_id: programId } }, body }));

export const fetchCheckout = (checkoutId: string, token: string): Promise<CheckoutStatus> =>
  unwrap(client.GET('/shop/api/checkouts/{checkout_id}', { params: { path: { checkout_id: checkoutId }, query: { token } } }));

/** An amount in integer cents, in the page's language and the shop's currency (`¥12.50`, `CN¥12.50`). */
export const formatMoney = (cents: number, currency: string, language: string): string =>
  new Intl.NumberFormat(language, { style: 'currency', currency, minimumFractionDigits: 2 }).format(cents / 100);
