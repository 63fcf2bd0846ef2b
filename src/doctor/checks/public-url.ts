import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { PaymentProviderSetting } from '../../shop/payment-provider-setting.entity';
import { PaymentProvidersRepository } from '../../shop/payment-providers.repository';
import { Finding, ok, warn } from './finding';

const LOOPBACK_HOST = /^(localhost|127(\.\d+){3}|\[::1\])$/i;

/**
 * PUBLIC_URL, the address buyers and payment gateways reach the service at (decisions §26): unset,
 * every checkout is refused, which matters once a project has switched a payment provider on
 * (counted when the database is at hand); set, it should be HTTPS in production, since a buyer's
 * return address carries the token that shows the cards, and a gateway loopback cannot reach.
 */
export async function checkPublicUrl(config: AppConfig, env: NodeJS.ProcessEnv, db: DataSource | null): Promise<Finding[]> {
  const base = config.publicUrl;
  if (!base) {
    const enabled = db ? await enabledProviders(db) : null;
    if (enabled)
      return [
        warn(
          'public url',
          `unset, but ${enabled} project${enabled === 1 ? ' has' : 's have'} a payment provider switched on: every storefront checkout is refused (PUBLIC_URL_NOT_SET)`,
          'set PUBLIC_URL to the https:// address buyers and gateways reach this service at (docs/configuration.md)',
        ),
      ];
    return [ok('public url', 'unset: the storefront takes no payments (set PUBLIC_URL to sell online)')];
  }
  const url = new URL(base);
  if (LOOPBACK_HOST.test(url.hostname) && env.NODE_ENV === 'production')
    return [
      warn(
        'public url',
        `${base} is this machine's own address: no buyer's browser and no payment gateway can reach it`,
        'set PUBLIC_URL to the public https:// address of the service (its proxy)',
      ),
    ];
  if (url.protocol === 'http:' && env.NODE_ENV === 'production')
    return [
      warn(
        'public url',
        `${base} is plain HTTP: the return address carries the token that shows a buyer's cards, and notifications travel in the clear`,
        'serve the service over HTTPS (a proxy, or TLS_CERT_FILE and TLS_KEY_FILE) and set PUBLIC_URL to its https:// address',
      ),
    ];
  return [ok('public url', `${base}: storefront return and payment notify addresses are built under it`)];
}

/** Projects with a provider switched on; null when the table cannot be read (a schema not migrated yet). */
async function enabledProviders(db: DataSource): Promise<number | null> {
  try {
    return await new PaymentProvidersRepository(db.getRepository(PaymentProviderSetting)).projectsWithOneOn();
  } catch {
    return null;
  }
}
