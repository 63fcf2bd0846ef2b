import { pathOf } from './envelope/family';
import { RequestContext, requestContextOf } from './request-context';

export interface AnswerToSign {
  method: string;
  /** Without the query. */
  path: string;
  nonce: string;
  status: number;
  /** What REQUEST_DIGEST hashes (decisions §17): see requestDigestInput. */
  request: Buffer;
  /** The body bytes exactly as they are sent. */
  body: Buffer;
}

/** Headers that sign an answer's final bytes (decisions §15, §17), once the signature is computed. */
export type AnswerSigner = (answer: AnswerToSign) => Promise<Record<string, string>>;

const SIGNER = Symbol.for('cardkey.answerSigner');
type Signable = { [SIGNER]?: AnswerSigner };

/**
 * Marks a request's answer to be signed, whatever it turns out to be (refusals too): called once
 * the client program is known. The adapter hook (src/bootstrap/create-app.ts) signs the body after
 * serialisation, the only place where its exact bytes exist. Outside a request, nothing to mark.
 */
export function signAnswerWith(context: RequestContext | undefined, signer: AnswerSigner): void {
  if (context) (context as Signable)[SIGNER] = signer;
}

interface AnyRequest {
  method?: string;
  url?: string;
  originalUrl?: string;
  headers?: Record<string, unknown>;
  body?: unknown;
  query?: unknown;
  rawBody?: Buffer;
  raw?: AnyRequest;
}

/** The signing headers for an answer about to be sent, or null when the request is not marked. */
export function answerSignatureHeaders(
  request: AnyRequest,
  status: number,
  body: Buffer | string | undefined,
): Promise<Record<string, string>> | null {
  const signer = (requestContextOf(request) as Signable)[SIGNER];
  if (!signer) return null;
  const raw = request.raw ?? request;
  const method = String(request.method ?? raw.method ?? '').toUpperCase();
  const url = request.originalUrl ?? raw.url ?? request.url ?? '';
  return signer({
    method,
    path: pathOf(url),
    nonce: requestNonce(request),
    status,
    request: requestDigestInput(method, url, request.rawBody ?? raw.rawBody),
    body: body === undefined ? Buffer.alloc(0) : typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
  });
}

const NO_BYTES = Buffer.alloc(0);

/**
 * The bytes REQUEST_DIGEST hashes (decisions §17): the body as received on the wire (`rawBody`,
 * kept by both adapters for the form and JSON bodies client routes take; a transport-encrypted
 * legacy body is its ciphertext form), else the raw query string without `?`. GET and HEAD always
 * take the query, which is what the service reads for them, so a body sent beside it binds
 * nothing; a POST without body bytes takes its (unread) query, usually empty (docs/decisions.md).
 */
export function requestDigestInput(method: string, url: string, rawBody: Buffer | undefined): Buffer {
  if (rawBody && rawBody.length > 0 && method !== 'GET' && method !== 'HEAD') return rawBody;
  const query = url.indexOf('?');
  return query < 0 ? NO_BYTES : Buffer.from(url.slice(query + 1), 'latin1');
}

/** X-Svc-Nonce (V3, SDK), else a `nonce` field of the body or query (Connect, legacy), else empty. */
function requestNonce(request: AnyRequest): string {
  const header = request.headers?.['x-svc-nonce'];
  if (typeof header === 'string') return header;
  for (const source of [request.body, request.query]) {
    const nonce = (source as { nonce?: unknown } | undefined)?.nonce;
    if (typeof nonce === 'string') return nonce;
  }
  return '';
}
