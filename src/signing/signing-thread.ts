import { Worker } from 'node:worker_threads';
import { signEd25519, SigningSecret } from './ed25519';

interface Pending {
  key: SigningSecret;
  data: Buffer;
  resolve: (signature: string) => void;
}

/**
 * One batch as the thread receives it, in three transferred buffers (nothing copied on the way):
 * the distinct keys (64 bytes each), and for item i, key index, start and end of its input at
 * `layout[3i..3i+2]` in `inputs`. (A Buffer's own ArrayBuffer is often Node's shared 8 KiB pool,
 * which postMessage would clone whole for every input.)
 */
interface Batch {
  id: number;
  keys: ArrayBuffer;
  layout: ArrayBuffer;
  inputs: ArrayBuffer;
}

/**
 * The thread's whole program (a string, so that it runs the same from dist/ and under Jest's
 * TypeScript): signs each batch with libsodium and answers the 64-byte signatures in order.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const sodium = require(workerData.sodium);
parentPort.on('message', ({ id, keys, layout, inputs }) => {
  const at = new Int32Array(layout);
  const count = at.length / 3;
  const out = Buffer.alloc(count * 64);
  for (let i = 0; i < count; i++) {
    const key = Buffer.from(keys, at[3 * i] * 64, 64);
    const input = Buffer.from(inputs, at[3 * i + 1], at[3 * i + 2] - at[3 * i + 1]);
    sodium.crypto_sign_detached(out.subarray(i * 64, i * 64 + 64), input, key);
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
 * the loop as much as signing it, docs/performance.md). If the thread fails, its batches are signed
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

  sign(key: SigningSecret, data: Buffer): Promise<string> {
    if (this.closed) return Promise.resolve(signEd25519(key, data));
    return new Promise((resolve) => {
      this.queue.push({ key, data, resolve });
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
    for (const pending of batches.flat()) pending.resolve(signEd25519(pending.key, pending.data));
  }
}

function packBatch(id: number, batch: Pending[]): Batch {
  const keyIndex = new Map<SigningSecret, number>();
  for (const { key } of batch) if (!keyIndex.has(key)) keyIndex.set(key, keyIndex.size);
  const keys = Buffer.alloc(keyIndex.size * 64);
  for (const [key, index] of keyIndex) key.copy(keys, index * 64);
  const layout = new Int32Array(batch.length * 3);
  const inputs = Buffer.alloc(batch.reduce((total, { data }) => total + data.length, 0));
  let offset = 0;
  batch.forEach(({ key, data }, index) => {
    layout[3 * index] = keyIndex.get(key)!;
    layout[3 * index + 1] = offset;
    offset += data.copy(inputs, offset);
    layout[3 * index + 2] = offset;
  });
  return { id, keys: keys.buffer, layout: layout.buffer, inputs: inputs.buffer };
}
