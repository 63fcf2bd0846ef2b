import { FetchLike } from '../src';

export interface SeenRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

export type Reply = { status?: number; json?: unknown; text?: string; headers?: Record<string, string> } | Error;

/**
 * A stand-in for fetch: records every request and answers from a script (one reply per request,
 * the last one repeated). An Error reply is thrown, as fetch throws on a network failure.
 */
export function fakeService(...replies: Array<Reply | ((request: SeenRequest) => Reply)>) {
  const seen: SeenRequest[] = [];
  const fetch: FetchLike = async (url, init) => {
    const request = { url, method: init.method, headers: init.headers, body: init.body ?? '' };
    seen.push(request);
    const next = replies[Math.min(seen.length - 1, replies.length - 1)];
    const reply = typeof next === 'function' ? next(request) : next;
    if (reply instanceof Error) throw reply;
    const text = reply.text ?? JSON.stringify(reply.json);
    const headers = new Map(
      Object.entries({ 'content-type': reply.json !== undefined ? 'application/json' : 'text/html', ...reply.headers }).map(
        ([k, v]) => [k.toLowerCase(), v],
      ),
    );
    return {
      status: reply.status ?? 200,
      headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
      text: async () => text,
    };
  };
  return { fetch, seen };
}

/** What fetch throws when nothing answers. */
export function connectionRefused(): Error {
  return Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
}
