import { pathOf } from '../envelope/family';
import { RequestContext, requestContextOf } from './request-context';

export interface AnswerToSign {
  method: string;
  /** Without the query. */
  path: string;
  nonce: string;
  status: number;
  /** The body bytes exactly as they are sent. */
  body: Buffer;
}

/** Headers that sign an answer's final bytes (decisions §15), once the signature is computed. */
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
  raw?: AnyRequest;
}

/** The signing headers for an answer about to be sent, or null when the request is not marked. */
export function answerSignatureHeaders(request: AnyRequest, status: number, body: Buffer | string | undefined): Promise<Record<string, string>> | null {
  const signer = (requestContextOf(request) as Signable)[SIGNER];
  if (!signer) return null;
  const raw = request.raw ?? request;
  return signer({
    method: String(request.method ?? raw.method ?? '').toUpperCase(),
    path: pathOf(request.originalUrl ?? raw.url ?? request.url ?? ''),
    nonce: requestNonce(request),
    status,
    body: body === undefined ? Buffer.alloc(0) : typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
  });
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
