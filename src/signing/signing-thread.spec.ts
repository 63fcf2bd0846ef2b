import { generateKeyPairSync, verify } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import {
  privateKeyFromDer,
  responseSigningInput,
  responseSigningParts,
  SignedAnswer,
  signEd25519,
  SigningSecret,
} from './ed25519';
import { SigningThread } from './signing-thread';

function keyPair(): { secret: SigningSecret; publicKey: ReturnType<typeof generateKeyPairSync>['publicKey'] } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const der = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
  return { secret: privateKeyFromDer(der), publicKey };
}

/**
 * Answers of different sizes, from a single byte to more than Node's 8 KiB buffer pool, and
 * requests from none to a large one: the thread hashes the request and signs the string of §17.
 */
const answers: SignedAnswer[] = [1, 40, 300, 9000].map((size, index) => ({
  method: 'POST',
  path: `/api/v1/cards/login/${index}`,
  nonce: `nonce-${index}`,
  timestamp: 1763800000 + index,
  status: 200,
  request: Buffer.alloc([0, 70, 9000, 5][index], 65 + index),
  body: Buffer.alloc(size, 97 + index),
}));
const inputs = answers.map(responseSigningInput);
const sign = (thread: SigningThread, secret: SigningSecret, index: number) =>
  thread.sign(secret, responseSigningParts(answers[index]));

describe('SigningThread', () => {
  let thread: SigningThread;
  beforeEach(() => (thread = new SigningThread()));
  afterEach(() => thread.close());

  it('signs a batch of inputs under two keys, each answer with its own key and input', async () => {
    const [a, b] = [keyPair(), keyPair()];
    const asked = inputs.flatMap((input, index) => [
      { pair: a, input, index },
      { pair: b, input, index },
    ]);
    const signatures = await Promise.all(asked.map(({ pair, index }) => sign(thread, pair.secret, index)));
    asked.forEach(({ pair, input }, index) => {
      expect(verify(null, input, pair.publicKey, Buffer.from(signatures[index], 'base64url'))).toBe(true);
      expect(signatures[index]).toBe(signEd25519(pair.secret, input)); // Ed25519 is deterministic
    });
  });

  it('signs batch after batch on one thread', async () => {
    const { secret, publicKey } = keyPair();
    for (const [index, input] of inputs.entries()) {
      const signature = await sign(thread, secret, index);
      expect(verify(null, input, publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
    }
  });

  it('still answers when its thread dies with batches under way, and starts a new thread for the next', async () => {
    const { secret, publicKey } = keyPair();
    await sign(thread, secret, 0);
    const pending = inputs.map((_input, index) => sign(thread, secret, index));
    // Queued after the thread's own turn: the batch has just been posted, its answer not yet read.
    await new Promise((resolve) => setImmediate(() => resolve((thread as unknown as { worker: Worker }).worker.terminate())));
    const signatures = await Promise.all(pending);
    inputs.forEach((input, index) =>
      expect(verify(null, input, publicKey, Buffer.from(signatures[index], 'base64url'))).toBe(true),
    );
    expect(await sign(thread, secret, 1)).toBe(signEd25519(secret, inputs[1]));
    expect((thread as unknown as { worker?: Worker }).worker).toBeDefined(); // signed on a new thread
  });

  it('sends what is asked for while a batch is under way once that batch is back', async () => {
    const { secret } = keyPair();
    const first = sign(thread, secret, 0);
    await new Promise((resolve) => setImmediate(resolve)); // the first batch is under way
    const behind = [sign(thread, secret, 1), sign(thread, secret, 2)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(await first).toBe(signEd25519(secret, inputs[0]));
    expect(await Promise.all(behind)).toEqual([signEd25519(secret, inputs[1]), signEd25519(secret, inputs[2])]);
  });

  it('answers what is under way, and what waits behind it, when it is closed', async () => {
    const { secret } = keyPair();
    const pending = sign(thread, secret, 2);
    await new Promise((resolve) => setImmediate(resolve));
    const behind = sign(thread, secret, 3);
    thread.close();
    expect(await pending).toBe(signEd25519(secret, inputs[2]));
    expect(await behind).toBe(signEd25519(secret, inputs[3]));
    expect(await sign(thread, secret, 0)).toBe(signEd25519(secret, inputs[0])); // after close, on the loop
  });
});
