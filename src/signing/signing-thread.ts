import { Worker } from 'node:worker_threads';
import { completeResponseSigningInput, ResponseSigningParts, signEd25519, SigningSecret } from './ed25519';

interface Pending {
  key: SigningSecret;
  parts: ResponseSigningParts;
  resolve: (signature: string) => void;
}

/** Int32 slots per item in a batch's layout. */
const SLOTS = 5;

/**
 * One batch as the thread receives it, in three transferred buffers (nothing copied on the way):
 * the distinct keys (64 bytes each), and for item i at `layout[5i..5i+4]`: key index, start of its
 * message, where the message leaves REQUEST_DIGEST to write, end of the message, end of the
 * request bytes that follow it in `inputs`. (A Buffer's own ArrayBuffer is often Node's shared 8 KiB
 * pool, which postMessage would clone whole for every input.)
 */
interface Batch {
  id: number;
  keys: ArrayBuffer;
  layout: ArrayBuffer;
  inputs: ArrayBuffer;
}

/**
 * The thread's whole program (a string, so that it runs the same from dist/ and under Jest's
 * TypeScript): for each item of a batch, hashes the request bytes with libsodium, writes the hex
 * digest into the message (completeResponseSigningInput's twin) and signs it; answers the 64-byte
 * signatures in order.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const sodium = require(workerData.sodium);
const digest = Buffer.alloc(32);
parentPort.on('message', ({ id, keys, layout, inputs }) => {
  const at = new Int32Array(layout);
  const bytes = Buffer.from(inputs);
  const count = at.length / ${SLOTS};
  const out = Buffer.alloc(count * 64);
  for (let i = 0; i < count; i++) {
    const slot = ${SLOTS} * i;
    const end = at[slot + 3];
    sodium.crypto_hash_sha256(digest, bytes.subarray(end, at[slot + 4]));
    bytes.write(digest.toString('hex'), at[slot + 2], 'latin1');
    sodium.crypto_sign_detached(out.subarray(i * 64, i * 64 + 64), bytes.subarray(at[slot + 1], end), Buffer.from(keys, at[slot] * 64, 64));
  }
  parentPort.postMessage({ id, signatures: out.buffer }, [out.buffer]);
});
`;

/**
 * Ed25519 signatures computed on a thread of their own, in batches: one batch at a time is under
 * way, and the signatures asked for meanwhile (or, when the thread is idle, in one turn of the event
 * loop) go over in one message and come back in one. A signature is the
 * largest single cost of a signed client answer (about a sixth of a Fastify heartbeat's CPU); here
 * the event loop only hands it over, and the thread uses CPU the loop leaves idle. One message per
 * batch rather than per signature is what makes this pay (a thread-pool call per signature cost
 * the loop as much as signing it, docs/performance-history.md). If the thread fails, its batches are signed
 * on the event loop, and the next batch starts a new thread (or, if it never answered, every later
 * signature is computed on the event loop).
 */
export class SigningThread {
  private worker: Worker | undefined;
  private queue: Pending[] = [];
  private scheduled = false;
  private nextId = 0;
  private closed = false;
  /** The one batch the thread is signing, by its message id. */
  private underWay: { id: number; batch: Pending[] } | null = null;

  /** The signature of an answer's signed bytes (decisions §17), the request digest computed on the thread too. */
  sign(key: SigningSecret, parts: ResponseSigningParts): Promise<string> {
    if (this.closed) return Promise.resolve(signEd25519(key, completeResponseSigningInput(parts)));
    return new Promise((resolve) => {
      this.queue.push({ key, parts, resolve });
      if (this.scheduled || this.underWay) return; // the answer of the batch under way sends this one
      this.scheduled = true;
      setImmediate(this.send);
    });
  }

  /**
   * Stops the thread (the service's shutdown): what is under way, and any answer the draining
   * server still signs, is signed on the event loop.
   */
  close(): void {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.signHere(this.takeUnderWay(), this.queue.splice(0));
    void worker?.terminate();
  }

  private readonly send = (): void => {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    if (this.closed) return this.signHere(batch);
    const id = this.nextId++;
    this.underWay = { id, batch };
    const message = packBatch(id, batch);
    const worker = this.thread();
    worker.ref(); // while a batch is under way, its requests wait for it
    worker.postMessage(message, [message.keys, message.layout, message.inputs]);
  };

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { sodium: require.resolve('sodium-native') } });
    let answered = false;
    worker.on('message', ({ id, signatures }: { id: number; signatures: ArrayBuffer }) => {
      answered = true;
      if (this.underWay?.id !== id) return; // a batch already signed here when its thread failed
      const batch = this.takeUnderWay();
      const bytes = Buffer.from(signatures);
      batch.forEach((pending, index) => pending.resolve(bytes.toString('base64url', index * 64, index * 64 + 64)));
      if (this.queue.length > 0) this.send();
      else worker.unref();
    });
    const failed = (): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      // A thread that fails before its first answer would fail again: sign here from now on.
      if (!answered) this.closed = true;
      this.signHere(this.takeUnderWay());
      if (this.queue.length > 0) this.send(); // what waited for the lost batch
    };
    worker.on('error', failed);
    worker.on('exit', failed);
    worker.unref(); // an idle thread never keeps the process alive (after the listeners, which ref it)
    this.worker = worker;
    return worker;
  }

  private takeUnderWay(): Pending[] {
    const batch = this.underWay?.batch ?? [];
    this.underWay = null;
    return batch;
  }

  private signHere(...batches: Pending[][]): void {
    for (const pending of batches.flat()) pending.resolve(signEd25519(pending.key, completeResponseSigningInput(pending.parts)));
  }
}

function packBatch(id: number, batch: Pending[]): Batch {
  const keyIndex = new Map<SigningSecret, number>();
  for (const { key } of batch) if (!keyIndex.has(key)) keyIndex.set(key, keyIndex.size);
  const keys = Buffer.alloc(keyIndex.size * 64);
  for (const [key, index] of keyIndex) key.copy(keys, index * 64);
  const layout = new Int32Array(batch.length * SLOTS);
  const inputs = Buffer.alloc(batch.reduce((total, { parts }) => total + parts.message.length + parts.request.length, 0));
  let offset = 0;
  batch.forEach(({ key, parts }, index) => {
    const slot = SLOTS * index;
    layout[slot] = keyIndex.get(key)!;
    layout[slot + 1] = offset;
    layout[slot + 2] = offset + parts.digestAt;
    offset += parts.message.copy(inputs, offset);
    layout[slot + 3] = offset;
    offset += parts.request.copy(inputs, offset);
    layout[slot + 4] = offset;
  });
  return { id, keys: keys.buffer, layout: layout.buffer, inputs: inputs.buffer };
}
