import type { ServerResponse } from 'node:http';

/** What helmet does to every answer: headers it sets, and headers it removes (X-Powered-By). */
export interface SecurityHeaders {
  set: ReadonlyArray<readonly [string, string]>;
  remove: readonly string[];
}

/**
 * helmet's headers (its defaults, without the Content-Security-Policy, which the console sets for
 * its own pages), worked out once by running helmet against a recording response. Without a CSP
 * they depend on nothing in the request, so every answer gets the same ones. Running helmet per
 * request cost a Fastify heartbeat 4 % of its CPU: @fastify/helmet builds the middleware anew for
 * every request, in two hooks, one of them async (docs/performance-history.md).
 */
export async function helmetHeaders(): Promise<SecurityHeaders> {
  const { default: helmet } = await import('helmet');
  const set: Array<[string, string]> = [];
  const remove: string[] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => set.push([name, String(value)]),
    removeHeader: (name: string) => remove.push(name),
  };
  await new Promise<void>((resolve, reject) =>
    helmet({ contentSecurityPolicy: false })({} as never, recorder as never, (error?: unknown) =>
      error ? reject(error) : resolve(),
    ),
  );
  return { set, remove };
}

export function applySecurityHeaders(headers: SecurityHeaders, res: ServerResponse): void {
  for (const name of headers.remove) res.removeHeader(name);
  for (const [name, value] of headers.set) res.setHeader(name, value);
}

/**
 * The headers to set as one object by lower-case name, for Fastify's reply. Fastify writes the head
 * with `writeHead(status, headers)`, which Node sends as it is when nothing was set on the raw
 * response; a single raw `setHeader` makes Node copy every header of the answer one by one (an
 * array and a lower-cased name each): setting the headers and writing the head were 14 % of what a
 * Fastify heartbeat allocated, writing the head alone is now 6 %. Nothing sets X-Powered-By under
 * Fastify, so there is nothing to remove.
 */
export function securityHeaderFields(headers: SecurityHeaders): Readonly<Record<string, string>> {
  return Object.freeze(Object.fromEntries(headers.set.map(([name, value]) => [name.toLowerCase(), value])));
}
