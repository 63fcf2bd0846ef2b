// Plain HTTP calls to the service (the measured load goes through autocannon, see measure.ts).
import { fail, FORM } from './settings';

export interface ApiOptions {
  token?: string;
  json?: unknown;
  form?: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface ApiAnswer {
  status: number;
  /** The parsed JSON answer, the raw text when it is not JSON, undefined when empty. */
  body: unknown;
}

export async function api(base: string, method: string, route: string, options: ApiOptions = {}): Promise<ApiAnswer> {
  const { token, json, form, body: raw, headers: extra } = options;
  const headers: Record<string, string> = { ...extra };
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form !== undefined) {
    headers['content-type'] = FORM;
    body = form;
  } else if (raw !== undefined) {
    body = raw;
  }
  const res = await fetch(base + route, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}

/** An admin API call that must answer `expected`; its body is taken to have the shape T. */
export async function adminCall<T>(
  base: string,
  method: string,
  route: string,
  options: ApiOptions,
  expected: number,
): Promise<T> {
  const res = await api(base, method, route, options);
  if (res.status !== expected) {
    fail(`${method} ${route} answered HTTP ${res.status} (expected ${expected}): ${JSON.stringify(res.body).slice(0, 400)}`);
  }
  return res.body as T;
}

/** A property of a parsed JSON value (`prop(body, 'data', 'token')` is body?.data?.token), or undefined. */
export function prop(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export async function inParallel<T>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  });
  await Promise.all(workers);
}
