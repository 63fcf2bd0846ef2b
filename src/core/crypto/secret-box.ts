import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
/** Opened secrets kept in memory at most (one or a few per project); past it the map starts over. */
const OPENED_LIMIT = 10_000;

/**
 * AES-256-GCM for secrets at rest (project signing keys, the Connect compatibility secret).
 * Stored form: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
export class SecretBox {
  private readonly key: Buffer;
  /**
   * Plain texts by their stored form. A stored form names one plain text for ever (a new secret is
   * a new encryption, with a new IV), and client routes open their project's secret on every
   * request (the V3 HMAC, the legacy MD5 signature and transport key): an AES-GCM decryption cost
   * 3 % of a V3 login's CPU. Only what opened is kept, so a tampered value fails every time.
   */
  private readonly opened = new Map<string, string>();

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.key = key;
  }

  static parseKey(text: string): Buffer {
    return /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  decrypt(stored: string): string {
    const known = this.opened.get(stored);
    if (known !== undefined) return known;
    const plain = this.open(stored);
    if (this.opened.size >= OPENED_LIMIT) this.opened.clear();
    this.opened.set(stored, plain);
    return plain;
  }

  private open(stored: string): string {
    const [version, iv, tag, body] = stored.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('Unrecognised secret format');
    // authTagLength pins the full 16-byte tag: GCM would otherwise accept a truncated one.
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
