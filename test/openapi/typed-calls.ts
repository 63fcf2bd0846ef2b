import createClient from 'openapi-fetch';
import type { components, paths } from '../../console/src/api/schema';

/**
 * Calls made through a client generated from openapi.json (openapi-typescript + openapi-fetch).
 * `npm run typecheck` compiles this file against the committed types, so a route, parameter or
 * field that the document loses or renames breaks the build; test/e2e/http/openapi.e2e-spec.ts runs the
 * same calls against the service, so the document has to say what the service really answers.
 */
export type CardView = components['schemas']['CardView'];

export function typedClient(baseUrl: string, adminToken?: string) {
  return createClient<paths>({ baseUrl, headers: adminToken ? { authorization: `Bearer ${adminToken}` } : {} });
}

/** An author's card work: generate a batch, then find it again with a filter of the list. */
export async function generateAndList(
  baseUrl: string,
  adminToken: string,
  projectId: string,
): Promise<{ batchId: string; listed: CardView[]; total: number }> {
  const client = typedClient(baseUrl, adminToken);
  const created = await client.POST('/admin/v1/projects/{id}/cards', {
    params: { path: { id: projectId } },
    body: { count: 3, duration_seconds: 3600, device_limit: 2, note: 'typed client' },
  });
  if (!created.data) throw new Error(`generate failed: ${JSON.stringify(created.error)}`);
  const batchId = created.data.batch_id;
  const listed = await client.GET('/admin/v1/projects/{id}/cards', {
    params: { path: { id: projectId }, query: { batch_id: batchId, page: 1, page_size: 2 } },
  });
  if (!listed.data) throw new Error(`list failed: ${JSON.stringify(listed.error)}`);
  return { batchId, listed: listed.data.items, total: listed.data.total };
}

/** The failure side: an unknown card is the admin envelope with the catalog code the document lists. */
export async function missingCard(
  baseUrl: string,
  adminToken: string,
  projectId: string,
): Promise<{ status: number; code?: number; requestId?: string }> {
  const client = typedClient(baseUrl, adminToken);
  const { error, response } = await client.GET('/admin/v1/projects/{id}/cards/{cardId}', {
    params: { path: { id: projectId, cardId: 2_000_000_000 } },
  });
  return { status: response.status, code: error?.error.code, requestId: error?.request_id };
}

/** A client-family call: the legacy paycheck of a card, unsigned, read from the query. */
export async function paycheck(baseUrl: string, programId: string, cardKey: string) {
  const client = typedClient(baseUrl);
  const { data } = await client.GET('/api/paycheck', { params: { query: { app: programId, kami: cardKey } } });
  if (!data) throw new Error('paycheck: no answer');
  // The 200 answer is the success envelope or a refusal: `code` tells them apart.
  return data.code === 1
    ? { refused: false as const, activated: data.data.activated, valid: data.data.valid }
    : { refused: true as const, code: data.code };
}
