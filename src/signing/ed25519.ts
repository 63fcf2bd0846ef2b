import { createHash, createPrivateKey, generateKeyPairSync } from 'node:crypto';
import sodium from 'sodium-native';

/** A fresh Ed25519 key pair: the raw 32-byte public key (base64url), its kid, the private key as PKCS#8 DER (base64). */
export function generateSigningKey(): { kid: string; publicKey: string; privateKeyDer: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  return {
    kid: kidOf(raw),
    publicKey: raw.toString('base64url'),
    privateKeyDer: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  };
}

/** decisions §15: the first 16 hex characters of SHA-256 of the raw public key. */
export function kidOf(rawPublicKey: Buffer): string {
  return createHash('sha256').update(rawPublicKey).digest('hex').slice(0, 16);
}

/**
 * A private key ready to sign: libsodium's 64-byte secret key (seed ‖ public key). Signing goes
 * through libsodium rather than node:crypto because OpenSSL's one-shot EVP path costs about twice
 * as much per signature (35 µs against 18 µs here), and every client answer is signed.
 */
export type SigningSecret = Buffer & { readonly __signingSecret: unique symbol };

/** The service stores keys as PKCS#8 DER (base64); Ed25519 signatures are deterministic, so either library signs alike. */
export function privateKeyFromDer(der: string): SigningSecret {
  const seed = Buffer.from(
    createPrivateKey({ key: Buffer.from(der, 'base64'), format: 'der', type: 'pkcs8' }).export({ format: 'jwk' }).d as string,
    'base64url',
  );
  const secret = Buffer.alloc(sodium.crypto_sign_SECRETKEYBYTES);
  sodium.crypto_sign_seed_keypair(Buffer.alloc(sodium.crypto_sign_PUBLICKEYBYTES), secret, seed);
  return secret as SigningSecret;
}

export interface SignedAnswer {
  method: string;
  /** Without the query. */
  path: string;
  /** X-Svc-Nonce, else the request's `nonce` field, else empty. */
  nonce: string;
  timestamp: number;
  status: number;
  /** What REQUEST_DIGEST hashes: the request body bytes as received, or the raw query string (requestDigestInput). */
  request: Buffer;
  /** The body bytes exactly as sent. */
  body: Buffer;
}

/**
 * An answer's signed bytes before the request is hashed: `message` is the whole string with 64
 * bytes left for REQUEST_DIGEST at `digestAt`, so that the signing thread hashes `request` and
 * signs in place, without assembling anything.
 */
export interface ResponseSigningParts {
  message: Buffer;
  digestAt: number;
  request: Buffer;
}

const DIGEST_HEX_LENGTH = 64;

/**
 * decisions §17: `"svc-response-v2\n" + METHOD + "\n" + PATH + "\n" + NONCE + "\n" + TIMESTAMP + "\n" +
 * STATUS + "\n" + REQUEST_DIGEST + "\n" + RAW_BODY`, REQUEST_DIGEST still to be written.
 */
export function responseSigningParts(answer: SignedAnswer): ResponseSigningParts {
  const head = `svc-response-v2\n${answer.method}\n${answer.path}\n${answer.nonce}\n${answer.timestamp}\n${answer.status}\n`;
  const digestAt = Buffer.byteLength(head, 'utf8');
  const message = Buffer.allocUnsafe(digestAt + DIGEST_HEX_LENGTH + 1 + answer.body.length);
  message.write(head, 0, 'utf8');
  message[digestAt + DIGEST_HEX_LENGTH] = 0x0a;
  answer.body.copy(message, digestAt + DIGEST_HEX_LENGTH + 1);
  return { message, digestAt, request: answer.request };
}

/** Writes REQUEST_DIGEST (lowercase hex SHA-256 of the request) into the parts' message, which it returns. */
export function completeResponseSigningInput(parts: ResponseSigningParts): Buffer {
  parts.message.write(createHash('sha256').update(parts.request).digest('hex'), parts.digestAt, 'latin1');
  return parts.message;
}

/** The bytes an answer's signature covers (decisions §17). */
export function responseSigningInput(answer: SignedAnswer): Buffer {
  return completeResponseSigningInput(responseSigningParts(answer));
}

/** Ed25519 over `data`, base64url without padding. */
export function signEd25519(key: SigningSecret, data: Buffer): string {
  const signature = Buffer.alloc(sodium.crypto_sign_BYTES);
  sodium.crypto_sign_detached(signature, data, key);
  return signature.toString('base64url');
}

/** The offline licence payload of decisions §15 (Unix seconds; `card_expires_at` null for a permanent card). */
export interface LicencePayload {
  v: 1;
  program_id: string;
  card_id: number;
  card_code_sha256: string;
  machine_id: string;
  kid: string;
  issued_at: number;
  valid_until: number;
  card_expires_at: number | null;
  /**
   * The card type's features (decisions §19); [] without a type. Added within v1: a reader that
   * ignores fields it does not know (every official client) reads older and newer licences alike.
   */
  features: string[];
  /** A trial card (decisions §21); added within v1 like `features`. */
  trial: boolean;
}

/** `base64url(payload) + "." + base64url(Ed25519 over "svc-licence-v1." + base64url(payload))` */
export function signLicence(key: SigningSecret, payload: LicencePayload): string {
  const encoded = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${encoded}.${signEd25519(key, Buffer.from(`svc-licence-v1.${encoded}`, 'utf8'))}`;
}
