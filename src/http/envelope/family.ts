/** The four response envelopes (decisions §2). */
export type Family = 'connect' | 'standard' | 'legacy' | 'admin';

const PREFIXES: ReadonlyArray<[string, Family]> = [
  ['/connect', 'connect'],
  ['/conncet', 'connect'],
  ['/api/legacy/v3', 'standard'],
  ['/api/v1', 'standard'],
  ['/api', 'legacy'],
  ['/admin', 'admin'],
];

/**
 * The family of a path. One rule for the error filter, the 404/405 answers and metrics; the route
 * snapshot test checks that every controller's declared envelope agrees with it.
 */
export function familyOfPath(path: string): Family {
  for (const [prefix, family] of PREFIXES) {
    if (path === prefix || path.startsWith(prefix + '/')) return family;
  }
  return 'admin';
}

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
