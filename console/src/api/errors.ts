/**
 * A refused or failed admin call, as the console shows it: the catalog code and message of the admin
 * envelope `{error: {code, message, details?}, request_id}`, and the request id to quote to support.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
    readonly requestId: string | undefined,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** No answer at all: the network or the service is down. */
  get unreachable(): boolean {
    return this.status === 0;
  }
}

interface AdminEnvelope {
  error: { code: number; message: string; details?: unknown };
  request_id?: string;
}

function isAdminEnvelope(body: unknown): body is AdminEnvelope {
  const error = (body as AdminEnvelope | null)?.error;
  return typeof error === 'object' && error !== null && typeof error.code === 'number' && typeof error.message === 'string';
}

/** Reads the failure of an openapi-fetch call: the admin envelope, or what the status alone says. */
export function toApiError(body: unknown, response: Response): ApiError {
  const headerId = response.headers.get('x-request-id') ?? undefined;
  if (isAdminEnvelope(body)) {
    return new ApiError(response.status, body.error.code, body.error.message, body.request_id ?? headerId, body.error.details);
  }
  return new ApiError(response.status, undefined, `HTTP ${response.status} ${response.statusText}`.trim(), headerId);
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The answer of a typed call, or an ApiError: queries and mutations throw so that one place shows failures. */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<T> {
  let result: FetchResult<T>;
  try {
    result = await call;
  } catch (error) {
    throw new ApiError(0, undefined, error instanceof Error ? error.message : String(error), undefined);
  }
  if (!result.response.ok) throw toApiError(result.error, result.response);
  return result.data as T;
}
