import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { unixSeconds } from '../common/time';
import { SecretBox } from '../core/crypto/secret-box';
import { signAnswerWith } from '../http/answer-signing';
import type { RequestContext } from '../http/request-context';
import { privateKeyFromDer, responseSigningParts, SigningSecret } from './ed25519';
import { SigningThread } from './signing-thread';
import { ActiveSigningKey } from './signing-keys.service';

export const RESPONSE_SIGNATURE_HEADERS = {
  timestamp: 'X-Svc-Response-Timestamp',
  key: 'X-Svc-Response-Key',
  signature: 'X-Svc-Response-Signature',
  version: 'X-Svc-Response-Version',
} as const;

/** decisions §17: the signed string binds the request's digest; v1 is no longer produced. */
const SIGNATURE_VERSION = '2';

const KEY_CACHE_LIMIT = 10_000;

/**
 * Signs the answer of a client route once its program is known (decisions §15, string of §17),
 * when the program has `response_signing` on. Decrypted private keys are kept in memory by kid (a kid names one key
 * for ever), so a signature costs one Ed25519 operation (about 18 µs, ed25519.ts). It is computed on
 * a thread of its own, many signatures to a message (signing-thread.ts): Fastify answered 3-9 % more logins and heartbeats, A-B-B-A
 * (docs/performance-history.md). Signing each answer on libuv's thread pool had cost the loop as much in
 * handing over and waking threads as the signature itself.
 */
@Injectable()
export class ResponseSigner implements OnModuleDestroy {
  private readonly keys = new Map<string, SigningSecret>();
  private readonly thread = new SigningThread();

  constructor(private readonly box: SecretBox) {}

  /** Marks the answer of the request `context` to be signed with `key` (when the program signs its answers). */
  signAnswer(context: RequestContext | undefined, responseSigning: boolean, key: ActiveSigningKey | null): void {
    if (!responseSigning || !key) return;
    signAnswerWith(context, async (answer) => {
      const timestamp = unixSeconds();
      const signature = await this.thread.sign(this.privateKey(key), responseSigningParts({ ...answer, timestamp }));
      return {
        [RESPONSE_SIGNATURE_HEADERS.timestamp]: String(timestamp),
        [RESPONSE_SIGNATURE_HEADERS.key]: key.kid,
        [RESPONSE_SIGNATURE_HEADERS.signature]: signature,
        [RESPONSE_SIGNATURE_HEADERS.version]: SIGNATURE_VERSION,
      };
    });
  }

  onModuleDestroy(): void {
    this.thread.close();
  }

  privateKey(key: ActiveSigningKey): SigningSecret {
    let found = this.keys.get(key.kid);
    if (!found) {
      if (this.keys.size >= KEY_CACHE_LIMIT) this.keys.clear();
      found = privateKeyFromDer(this.box.decrypt(key.privateKeyEnc));
      this.keys.set(key.kid, found);
    }
    return found;
  }
}
