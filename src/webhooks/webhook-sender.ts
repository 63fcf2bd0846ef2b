import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { LookupFunction } from 'node:net';
import { resolvePublic, TargetRefused, targetHost } from './webhook-targets';

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
 * kept. The connection goes to an address checked at this moment (the custom lookup), so a host
 * that resolved to a public address when it was saved cannot be pointed at a private one later.
 */
export function send(url: string, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<SendResult> {
  const started = Date.now();
  const done = (status: number | null, excerpt: string, error: string | null): SendResult => ({
    status,
    durationMs: Date.now() - started,
    excerpt,
    error,
  });
  let target: URL;
  try {
    target = targetHost(url);
  } catch (error) {
    return Promise.resolve(done(null, '', (error as Error).message));
  }
  const lookup: LookupFunction = (host, options, callback) => {
    resolvePublic(host, allowPrivate).then(
      (addresses) => {
        if ((options as { all?: boolean }).all) (callback as (e: null, a: typeof addresses) => void)(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: TargetRefused) =>
        callback(
          Object.assign(new Error(error.address ? `${error.reason} (${error.address})` : error.reason), { code: 'ETARGET' }),
          '',
          0,
        ),
    );
  };
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
        lookup,
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
