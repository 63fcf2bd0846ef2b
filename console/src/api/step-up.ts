import { setEnrolmentRequired } from './session';

/** Catalog codes of two-factor sign-in the API layer acts on (decisions, "Two-factor sign-in"). */
export const TWO_FACTOR_REQUIRED = 11007;
export const TWO_FACTOR_CODE_INVALID = 11008;
export const TWO_FACTOR_ENROLMENT_REQUIRED = 11009;
const HEADER = 'X-Svc-2fa-Code';

/** Asks the user for a code of their authenticator; `wrong`: the last one was refused. Null: they cancelled. */
export type CodeAsker = (wrong: boolean) => Promise<string | null>;
let asker: CodeAsker | null = null;

/** The step-up dialog registers itself while the console's shell is shown. */
export function registerCodeAsker(ask: CodeAsker): () => void {
  asker = ask;
  return () => {
    if (asker === ask) asker = null;
  };
}

/** The catalog code of a 403 admin envelope (the two-factor refusals are 403: a 401 would end the session). */
async function refusalCode(response: Response): Promise<number | undefined> {
  if (response.status !== 403) return undefined;
  try {
    const body = (await response.clone().json()) as { error?: { code?: unknown } };
    return typeof body.error?.code === 'number' ? body.error.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The fetch of the admin API client. A sensitive route (key and secret rotation, project deletion,
 * bulk card deletes) answers 11007 without a fresh code: the user is asked for one and the same
 * request goes again with it in `X-Svc-2fa-Code`, asked again while the code is refused (11008),
 * until it passes or they cancel (the caller then gets the refusal). One place, so every present
 * and future step-up route gets the prompt. The code is never kept beyond the request.
 * An answer 11009 (the platform requires two-factor sign-in) sends the user to the security page.
 */
export async function stepUpFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request && !init ? input : new Request(input, init);
  // A body can be read once: its bytes are kept for a resend. Sent as bytes, not as the Request's
  // stream, so the browser (and a test watching it) sees a plain body. A GET may need a code too (a
  // backup's download): it goes again without a body.
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
  const send = (headers: Headers) =>
    fetch(request.url, { method: request.method, headers, body, credentials: request.credentials, signal: request.signal });
  let response = await send(new Headers(request.headers));
  let code = await refusalCode(response);
  let asked = false;
  while (asker && (code === TWO_FACTOR_REQUIRED || (asked && code === TWO_FACTOR_CODE_INVALID))) {
    const totp = await asker(asked);
    if (!totp) break;
    asked = true;
    const headers = new Headers(request.headers);
    headers.set(HEADER, totp);
    response = await send(headers);
    code = await refusalCode(response);
  }
  if (code === TWO_FACTOR_ENROLMENT_REQUIRED) setEnrolmentRequired(true);
  return response;
}
