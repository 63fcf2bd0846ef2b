import { existsSync } from 'node:fs';
import { AppConfig } from '../../config/app-config';
import { Finding, ok, warn } from './finding';
import { tlsSetting } from './tls';

const LOOPBACK = /^(127\.|::1$|localhost$)/;

/** Where clients reach the service and whether it sees their addresses. */
export function checkAddress(config: AppConfig, env: NodeJS.ProcessEnv): Finding[] {
  const production = env.NODE_ENV === 'production';
  const findings: Finding[] = [];
  if (LOOPBACK.test(config.HOST) && (production || existsSync('/.dockerenv'))) {
    findings.push(
      warn(
        'address',
        `HOST=${config.HOST}: only this machine (or container) can reach the service`,
        'set HOST=0.0.0.0 and let the proxy or firewall decide who reaches it',
      ),
    );
  }
  const tls = Boolean(tlsSetting(config, env, 'TLS_CERT_FILE'));
  if (production && !config.TRUST_PROXY && !tls) {
    findings.push(
      warn(
        'address',
        "no TLS and no TRUST_PROXY: behind a proxy every client has the proxy's address (per-address limits become global); without one, clients talk plain HTTP",
        "set TRUST_PROXY to the proxy's address (docker/compose.yml: Caddy's), or TLS_CERT_FILE and TLS_KEY_FILE",
      ),
    );
  }
  if (!findings.length) {
    const proxy = config.TRUST_PROXY ? `, client addresses from X-Forwarded-For of ${config.TRUST_PROXY}` : '';
    findings.push(ok('address', `listens on ${config.HOST}:${config.PORT}${tls ? ' with TLS' : ''}${proxy}`));
  }
  return findings;
}
