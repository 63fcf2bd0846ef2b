import { Check, probe } from './probe';

/**
 * Readiness checks that domain modules add (the schema is current, a login's own statement runs),
 * so that `/health/ready`, below them, fails whenever a login cannot succeed without knowing how a
 * login works.
 */
export class ReadinessChecks {
  private readonly checks = new Map<string, () => Promise<unknown>>();

  register(name: string, check: () => Promise<unknown>): void {
    this.checks.set(name, check);
  }

  async run(): Promise<Record<string, Check>> {
    const names = [...this.checks.keys()];
    const results = await Promise.all(names.map((name) => probe(this.checks.get(name)!)));
    return Object.fromEntries(names.map((name, i) => [name, results[i]]));
  }
}
