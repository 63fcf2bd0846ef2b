import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup, ResolvedAddress, resolvePublic, TargetRefused, targetHost } from '../common/outbound-targets';

export const RESPONSE_EXCERPT_BYTES = 1024;
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface SendResult {
  status: number | null;
  durationMs: number;
  excerpt: string;
  error: string | null;
}

/**
 * POSTs one delivery: 10 s for the whole exchange (decisions §20), the first KiB of the answer
 * kept. The target's addresses are checked at this moment against the current setting, an IP
 * literal as much as a name (Node calls no lookup for a literal), and the connection goes only to
 * the addresses checked: a target that was public, or allowed, when it was saved cannot reach a
 * private address now.
 */
export async function send(
  url: string,
  body: string,
  headers: Record<string, string>,
  allowPrivate: boolean,
): Promise<SendResult> {
  const started = Date.now();
  const done = (status: number | null, excerpt: string, error: string | null): SendResult => ({
    status,
    durationMs: Date.now() - started,
    excerpt,
    error,
  });
  let target: URL;
  let checked: ResolvedAddress[];
  try {
    target = targetHost(url);
    checked = await resolvePublic(target.hostname, allowPrivate);
  } catch (error) {
    if (error instanceof TargetRefused) return done(null, '', error.reason);
    throw error;
  }
  return new Promise((resolve) => {
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'cardkey-webhooks/1',
          ...headers,
          'content-length': String(Buffer.byteLength(body)),
        },
        lookup: pinnedLookup(checked),
        timeout: DELIVERY_TIMEOUT_MS,
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_EXCERPT_BYTES) chunks.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES - kept));
          kept += chunk.length;
        });
        response.on('end', () => resolve(done(response.statusCode ?? null, Buffer.concat(chunks).toString('utf8'), null)));
        response.on('error', (error) =>
          resolve(done(response.statusCode ?? null, Buffer.concat(chunks).toString('utf8'), error.message)),
        );
      },
    );
    // The whole exchange, not only the idle time between packets.
    const deadline = setTimeout(() => request.destroy(new Error('no answer within 10 s')), DELIVERY_TIMEOUT_MS);
    request.on('timeout', () => request.destroy(new Error('no answer within 10 s')));
    request.on('error', (error) => resolve(done(null, '', error.message.slice(0, 200))));
    request.on('close', () => clearTimeout(deadline));
    request.end(body);
  });
}
