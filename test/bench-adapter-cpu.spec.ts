import { adapterCpuLine } from '../bench/report';
import type { CpuPerRequest } from '../bench/cpu';

const cpu = (service: number): CpuPerRequest => ({
  service,
  loadgen: 0.1,
  postgres: 0.1,
  redis: 0.01,
  other: 0.01,
  busyShare: 0.8,
  serviceCores: 0.9,
});

describe("the bench's Express against Fastify CPU line", () => {
  it("states both adapters' service CPU per bound-device login and their ratio against the 1.25× target", () => {
    const line = adapterCpuLine([
      { adapter: 'express', scenario: 'baseline', cpu: cpu(0.3) },
      { adapter: 'express', scenario: 'bound', cpu: cpu(0.6) },
      { adapter: 'fastify', scenario: 'bound', cpu: cpu(0.4) },
    ]);
    expect(line).toBe(
      'Service CPU per bound-device login: Express 0.600 ms, Fastify 0.400 ms, ratio 1.50× (target ≤ 1.25×: missed).',
    );
  });

  it('calls the target met at 1.25× or less', () => {
    const line = adapterCpuLine([
      { adapter: 'fastify', scenario: 'bound', cpu: cpu(0.4) },
      { adapter: 'express', scenario: 'bound', cpu: cpu(0.5) },
    ]);
    expect(line).toContain('ratio 1.25× (target ≤ 1.25×: met)');
  });

  it('prints nothing unless both adapters measured the bound-device login with CPU figures', () => {
    expect(adapterCpuLine([{ adapter: 'fastify', scenario: 'bound', cpu: cpu(0.4) }])).toBeNull();
    expect(
      adapterCpuLine([
        { adapter: 'express', scenario: 'bound', cpu: null },
        { adapter: 'fastify', scenario: 'bound', cpu: cpu(0.4) },
      ]),
    ).toBeNull();
  });
});
