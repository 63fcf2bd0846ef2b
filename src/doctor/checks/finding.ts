/**
 * `fail`: answers would be wrong or refused (doctor exits 1; the start refuses the ones in
 * START_BLOCKERS). `warn`: the service works, but something an operator should fix.
 */
export type Severity = 'ok' | 'warn' | 'fail';

export type CheckName =
  | 'configuration'
  | 'database'
  | 'pooler'
  | 'replica'
  | 'embedded data'
  | 'migrations'
  | 'redis'
  | 'sentinel'
  | 'encryption key'
  | 'signing keys'
  | 'clock'
  | 'time zone'
  | 'address'
  | 'public url'
  | 'tls'
  | 'disk'
  | 'mail';

export interface Finding {
  check: CheckName;
  severity: Severity;
  message: string;
  /** One line: what to do about it. */
  fix?: string;
}

/**
 * What the start refuses to serve with: a key that opens no secret, answers that would carry a bad
 * signature. (A migration that cannot run already stops the start, in DatabaseModule.)
 */
export const START_BLOCKERS: ReadonlySet<CheckName> = new Set(['encryption key', 'signing keys']);

/** A data source or a query runner (a test's transaction). */
export interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

export const ok = (check: CheckName, message: string): Finding => ({ check, severity: 'ok', message });
export const warn = (check: CheckName, message: string, fix: string): Finding => ({ check, severity: 'warn', message, fix });
export const fail = (check: CheckName, message: string, fix: string): Finding => ({ check, severity: 'fail', message, fix });

/** An error's message without any URL credentials (a driver may quote the address it was given). */
export function safeMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^@\s/]*@/gi, '$1***@');
}

/** The block printed by doctor and at start: one line per finding, its fix on the next. */
export function formatFindings(findings: readonly Finding[]): string[] {
  const label = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' } as const;
  return findings.flatMap((finding) => [
    `${label[finding.severity]}  ${finding.check}: ${finding.message}`,
    ...(finding.fix ? [`      fix: ${finding.fix}`] : []),
  ]);
}

/** `promise`, or a rejection with `message` once `ms` have passed: a probe that never settles must not hold the doctor or a start. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}
