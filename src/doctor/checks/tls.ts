import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { AppConfig } from '../../config/app-config';
import { fail, Finding, ok, safeMessage, warn } from './finding';

/** The config's value once it has the key (decisions §22), else the environment's. */
export function tlsSetting(config: AppConfig, env: NodeJS.ProcessEnv, key: 'TLS_CERT_FILE' | 'TLS_KEY_FILE'): string | undefined {
  const value = (config as unknown as Record<string, unknown>)[key] ?? env[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * TLS_CERT_FILE and TLS_KEY_FILE: both or neither, readable, a pair, and the certificate in date.
 * Neither set, the finding says where TLS is: at the proxy TRUST_PROXY names, or nowhere (plain
 * HTTP; the address check warns of that in production).
 */
export function checkTls(config: AppConfig, env: NodeJS.ProcessEnv, now: () => number = Date.now): Finding[] {
  const certFile = tlsSetting(config, env, 'TLS_CERT_FILE');
  const keyFile = tlsSetting(config, env, 'TLS_KEY_FILE');
  if (!certFile && !keyFile) {
    return [
      config.TRUST_PROXY
        ? ok('tls', `not set: TLS ends at the proxy in front (TRUST_PROXY ${config.TRUST_PROXY})`)
        : ok('tls', 'not set, and no proxy in front (TRUST_PROXY unset): clients talk plain HTTP to this service'),
    ];
  }
  if (!certFile || !keyFile)
    return [
      fail(
        'tls',
        `${certFile ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE'} is not set`,
        'set both TLS_CERT_FILE and TLS_KEY_FILE (PEM), or neither',
      ),
    ];
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(readFileSync(certFile));
  } catch (error) {
    return [
      fail(
        'tls',
        `TLS_CERT_FILE ${certFile}: ${safeMessage(error)}`,
        'point TLS_CERT_FILE at a readable PEM certificate (chain)',
      ),
    ];
  }
  let key;
  try {
    key = createPrivateKey(readFileSync(keyFile));
  } catch (error) {
    return [
      fail(
        'tls',
        `TLS_KEY_FILE ${keyFile}: ${safeMessage(error)}`,
        'point TLS_KEY_FILE at the readable PEM private key of the certificate',
      ),
    ];
  }
  if (!cert.checkPrivateKey(key))
    return [fail('tls', "TLS_KEY_FILE is not the key of TLS_CERT_FILE's certificate", 'pair the certificate with its own key')];
  const daysLeft = (Date.parse(cert.validTo) - now()) / 86_400_000;
  if (daysLeft < 0)
    return [
      fail(
        'tls',
        `the certificate expired on ${new Date(cert.validTo).toISOString().slice(0, 10)}`,
        'renew it, then kill -HUP the service to load it',
      ),
    ];
  if (daysLeft < 14)
    return [
      warn('tls', `the certificate expires in ${Math.floor(daysLeft)} days`, 'renew it, then kill -HUP the service to load it'),
    ];
  return [ok('tls', `certificate for ${cert.subject.replace(/\n/g, ', ')} valid ${Math.floor(daysLeft)} more days`)];
}
