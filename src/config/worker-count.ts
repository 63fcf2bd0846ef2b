// How many worker processes `WORKERS=auto` runs, from the host's cores and where the database is.

/**
 * `WORKERS=auto` with PostgreSQL and Redis (docs/operations.md, "Every core"; figures in
 * docs/capacity.md): one process up to 2 cores, where a second worker convoyed with the database on
 * the same cores (2.7× slower on the 2-core bench machine); beyond, half the cores when the database
 * runs on this host (on 16 cores 8 workers served the most logins, 12 fewer: PostgreSQL kept 3 cores
 * busy and the rest went to contention), every core when it runs elsewhere.
 */
export function autoWorkers(cores: number, databaseLocal: boolean): number {
  if (cores <= 2) return 1;
  return databaseLocal ? Math.floor(cores / 2) : cores;
}

/** Whether DATABASE_URL points at this host (loopback, localhost or a Unix socket), whose cores PostgreSQL then shares. */
export function databaseOnThisHost(url: string | undefined): boolean {
  if (!url) return true;
  try {
    const parsed = new URL(url);
    const socket = parsed.searchParams.get('host') ?? '';
    const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return socket.startsWith('/') || host === '' || host === 'localhost' || host === '::1' || /^127\./.test(host);
  } catch {
    return true;
  }
}
