import { ErrorCode } from './error-code';
import { ServiceError } from './service-error';

/**
 * What a blacklist entry refuses: a device code or an address of the login blacklist (decisions
 * §24), a domain or a client IP of the site-verification blacklist (`/api/verify`).
 */
export type BlacklistedKind = 'device' | 'address' | 'domain' | 'ip';

const MESSAGES: Record<BlacklistedKind, string> = {
  device: 'This device is blacklisted',
  address: 'This address is blacklisted',
  domain: 'This domain is blacklisted',
  ip: 'This IP is blacklisted',
};

/** `40002 BLACKLISTED` saying which kind of entry refused the request: one code, the exact words. */
export function blacklisted(kind: BlacklistedKind): ServiceError {
  return new ServiceError(ErrorCode.BLACKLISTED, MESSAGES[kind]);
}
