/**
 * What a domain service may know of the request it serves: a place for values computed once per
 * request (cache generations). Services take this, never the HTTP request context, so
 * they run the same inside a request and outside one (jobs, the CLI, tests).
 */
export interface RequestMemo {
  memo?: Map<symbol, unknown>;
}

/**
 * `make()` once per request under `key` (its first result is shared by the rest of the request),
 * or on every call outside a request (no memo).
 */
export function perRequest<T>(scope: RequestMemo | undefined, key: symbol, make: () => T): T {
  if (!scope) return make();
  scope.memo ??= new Map();
  if (!scope.memo.has(key)) scope.memo.set(key, make());
  return scope.memo.get(key) as T;
}
