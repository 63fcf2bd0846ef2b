import { setTimeout as sleep } from 'node:timers/promises';
import { ClientErrorCode } from './error-codes';
import { RawAnswer, Result } from './result';
import { requestDigestInput } from './trust';

export type FetchLike = (
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body?: string;
    redirect: 'manual';
    signal: AbortSignal;
  },
) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  arrayBuffer?(): Promise<ArrayBuffer>;
}>;

export interface TransportOptions {
  baseUrl: string;
  fetch: FetchLike;
  timeoutMs: number;
  /** Further attempts after a network failure of an idempotent call. */
  retries: number;
  /** First backoff delay; doubled each attempt, with jitter, capped at 8 times this. */
  retryDelayMs: number;
}

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  /** Built per attempt, so each attempt is freshly signed (a new timestamp and nonce); `nonce` is the one it sent. */
  build: () => { headers: Record<string, string>; body?: string; nonce?: string };
  /** Sending it twice has the effect of sending it once: only then is a network failure retried. */
  idempotent: boolean;
}

/** `digested`: what the signed answer's REQUEST_DIGEST must hash, from the bytes this attempt sent. */
export type Sent = { ok: true; answer: RawAnswer; nonce: string; digested: Buffer } | { ok: false; failure: Result<never> };

/** Gateway answers that mean the service was not reached; retried like a network failure. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/**
 * Sends one call. Business answers, whatever they say, come back as they are and are never
 * retried; only a missing answer (or a gateway's non-JSON 502/503/504) of an idempotent call is
 * tried again, after an exponential backoff.
 */
export async function send(options: TransportOptions, call: Call): Promise<Sent> {
  const url = options.baseUrl.replace(/\/+$/, '') + call.path;
  const attempts = call.idempotent ? options.retries + 1 : 1;
  let lastError = 'no attempt made';
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (attempt > 0) await sleep(backoff(options.retryDelayMs, attempt));
    try {
      const { headers, body, nonce } = call.build();
      const response = await options.fetch(url, {
        method: call.method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      // The bytes as received: a signed answer is verified over them, not over a re-encoding.
      const bytes = response.arrayBuffer ? Buffer.from(await response.arrayBuffer()) : Buffer.from(await response.text(), 'utf8');
      const answer: RawAnswer = { status: response.status, headers: response.headers, text: bytes.toString('utf8'), bytes };
      if (!isGatewayFailure(answer))
        return { ok: true, answer, nonce: nonce ?? '', digested: requestDigestInput(call.method, call.path, body) };
      lastError = `HTTP ${answer.status} from a gateway`;
    } catch (error) {
      lastError = describe(error);
    }
  }
  return {
    ok: false,
    failure: { success: false, code: ClientErrorCode.NETWORK_ERROR, message: `The service could not be reached: ${lastError}` },
  };
}

function isGatewayFailure(answer: RawAnswer): boolean {
  return GATEWAY_STATUSES.has(answer.status) && !(answer.headers.get('content-type') ?? '').includes('json');
}

function backoff(baseMs: number, attempt: number): number {
  const exponential = Math.min(baseMs * 2 ** (attempt - 1), baseMs * 8);
  return exponential / 2 + Math.random() * (exponential / 2);
}

/** Duck-typed, not `instanceof Error`: fetch's errors may come from another realm (vm, worker). */
function describe(error: unknown): string {
  const e = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown;
    message?: unknown;
    cause?: { code?: unknown };
  };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timed out';
  if (typeof e.message !== 'string') return String(error);
  return typeof e.cause?.code === 'string' ? `${e.message} (${e.cause.code})` : e.message;
}
