import { loadConfig } from '../../config/app-config';
import { checkTls } from './tls';

// Certificates themselves: test/e2e/operations/doctor.e2e-spec.ts (openssl makes them there).
describe('checkTls without certificate files: where TLS ends', () => {
  it('at the proxy TRUST_PROXY names', () => {
    expect(checkTls(loadConfig({ TRUST_PROXY: '172.30.0.2' }), {})).toEqual([
      { check: 'tls', severity: 'ok', message: 'not set: TLS ends at the proxy in front (TRUST_PROXY 172.30.0.2)' },
    ]);
  });

  it('nowhere, without a proxy: it does not claim one', () => {
    const [finding] = checkTls(loadConfig({}), {});
    expect(finding).toMatchObject({ check: 'tls', severity: 'ok' });
    expect(finding.message).toBe('not set, and no proxy in front (TRUST_PROXY unset): clients talk plain HTTP to this service');
    expect(finding.message).not.toContain('TLS ends at the proxy');
  });
});
