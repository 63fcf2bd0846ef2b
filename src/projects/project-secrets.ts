import { randomBytes } from 'node:crypto';

/** The three per-project secrets, how each is generated, and where each is stored. */
export const SECRET_NAMES = ['api_secret', 'legacy_secret', 'transport_key'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

export const SECRET_COLUMNS = {
  api_secret: 'apiSecretEnc',
  legacy_secret: 'legacySecretEnc',
  transport_key: 'transportKeyEnc',
} as const satisfies Record<SecretName, string>;

export function generateSecret(name: SecretName): string {
  // api_secret keys HMAC-SHA256; legacy clients often hard-code hex, so the others are hex.
  return name === 'api_secret' ? randomBytes(32).toString('base64url') : randomBytes(16).toString('hex');
}

export function isSecretName(value: string): value is SecretName {
  return (SECRET_NAMES as readonly string[]).includes(value);
}

/** Shows only that a secret exists and its last four characters. */
export function maskSecret(secret: string): string {
  return '****' + secret.slice(-4);
}
