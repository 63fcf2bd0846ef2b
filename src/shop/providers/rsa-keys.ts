import { createPrivateKey, createPublicKey, KeyObject } from 'node:crypto';
import { ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';

/** The shortest RSA key RSA2 (SHA256withRSA) gateways take. */
const MIN_BITS = 2048;

/**
 * A gateway's RSA key as people paste it: PEM, or the bare base64 that key tools print (Alipay's
 * gives PKCS#8 for Java and PKCS#1 for other languages), with or without line breaks.
 */
function parseKey(text: string, kind: 'private' | 'public'): KeyObject {
  const trimmed = text.trim();
  const load = (key: string | { key: Buffer; format: 'der'; type: 'pkcs8' | 'pkcs1' | 'spki' }) =>
    kind === 'private'
      ? createPrivateKey(key as Parameters<typeof createPrivateKey>[0])
      : createPublicKey(key as Parameters<typeof createPublicKey>[0]);
  // A private key in a public key's field would be shown in clear: refused, though a public key could be derived.
  if (kind === 'public' && trimmed.includes('PRIVATE KEY')) throw new Error('a private key, not a public one');
  if (trimmed.startsWith('-----BEGIN')) return load(trimmed);
  const der = Buffer.from(trimmed.replace(/\s+/g, ''), 'base64');
  if (kind === 'public' && isPrivateDer(der)) throw new Error('a private key, not a public one');
  const types = kind === 'private' ? (['pkcs8', 'pkcs1'] as const) : (['spki', 'pkcs1'] as const);
  for (const type of types) {
    try {
      return load({ key: der, format: 'der', type });
    } catch {
      // the next encoding
    }
  }
  throw new Error(`not an RSA ${kind} key`);
}

function isPrivateDer(der: Buffer): boolean {
  return (['pkcs8', 'pkcs1'] as const).some((type) => {
    try {
      createPrivateKey({ key: der, format: 'der', type });
      return true;
    } catch {
      return false;
    }
  });
}

function usableRsa(text: unknown, kind: 'private' | 'public'): boolean {
  if (typeof text !== 'string') return false;
  try {
    const key = parseKey(text, kind);
    return key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= MIN_BITS;
  } catch {
    return false;
  }
}

/** The private key as PKCS#8 PEM, whatever form it was given in. */
export function pkcs8Pem(text: string): string {
  return parseKey(text, 'private').export({ type: 'pkcs8', format: 'pem' }) as string;
}

/** The public key as SPKI PEM, whatever form it was given in. */
export function spkiPem(text: string): string {
  return parseKey(text, 'public').export({ type: 'spki', format: 'pem' }) as string;
}

@ValidatorConstraint({ name: 'isRsaPrivateKey' })
export class IsRsaPrivateKey implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return usableRsa(value, 'private');
  }
  defaultMessage(): string {
    return `$property must be an RSA private key of at least ${MIN_BITS} bits, PEM or base64 (PKCS#8 or PKCS#1)`;
  }
}

@ValidatorConstraint({ name: 'isRsaPublicKey' })
export class IsRsaPublicKey implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return usableRsa(value, 'public');
  }
  defaultMessage(): string {
    return `$property must be an RSA public key of at least ${MIN_BITS} bits, PEM or base64`;
  }
}
