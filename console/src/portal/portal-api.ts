import createClient from 'openapi-fetch';
import { ApiError } from '../api/errors';
import type { components, paths } from '../api/schema';

export type CardInfo = components['schemas']['CardInfo'];
type PortalPath = '/api/v1/portal/cards/info' | '/api/v1/portal/cards/unbind' | '/api/v1/portal/cards/topup';

/** The portal's own client: unsigned client calls, no admin token ever (the card key is the holder's proof). */
const client = createClient<paths>({ baseUrl: window.location.origin });

interface StandardAnswer {
  code?: number;
  success?: boolean;
  msg?: string;
  data?: unknown;
  request_id?: string;
}

/**
 * One portal call in the standard envelope: success when `success` is true and `code` is the route's
 * own success code (unbind answers 1, the others 0); anything else is an ApiError with the catalog
 * code, message and request id, as the console shows failures.
 */
export async function portalCall<T>(path: PortalPath, body: Record<string, string>, successCode: 0 | 1 = 0): Promise<T> {
  let answer: StandardAnswer | undefined;
  let response: Response;
  try {
    // The typed client checks the path; the body is the route's JSON as the DTO names its fields.
    const result = await client.POST(path, { body: body as never, parseAs: 'json' });
    response = result.response;
    answer = (result.data ?? result.error) as StandardAnswer | undefined;
  } catch (error) {
    throw new ApiError(0, undefined, error instanceof Error ? error.message : String(error), undefined);
  }
  if (answer?.success === true && answer.code === successCode) return answer.data as T;
  throw new ApiError(
    response.status,
    answer?.code,
    answer?.msg ?? `HTTP ${response.status}`,
    answer?.request_id ?? response.headers.get('x-request-id') ?? undefined,
  );
}
