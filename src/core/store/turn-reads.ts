import { SharedStore } from './shared-store';

interface Waiting {
  resolve: (value: string | null) => void;
  reject: (error: unknown) => void;
  promise: Promise<string | null>;
}

/**
 * Reads of the shared store asked for during one turn of the event loop, sent together as one
 * multi-key read once the turn is over (one MGET on Redis), each key once however many requests
 * ask for it. A read is always sent after it was asked for, so it sees every write that finished
 * before: concurrent client requests of one program read its cache generation in one command
 * instead of one each. A fault of the store reaches every read of that turn.
 */
export class TurnReads {
  private turn: Map<string, Waiting> | null = null;

  constructor(private readonly store: SharedStore) {}

  get(key: string): Promise<string | null> {
    let turn = this.turn;
    if (!turn) {
      const gathering = (turn = this.turn = new Map());
      setImmediate(() => this.send(gathering));
    }
    let waiting = turn.get(key);
    if (!waiting) {
      let resolve!: Waiting['resolve'];
      let reject!: Waiting['reject'];
      const promise = new Promise<string | null>((res, rej) => ([resolve, reject] = [res, rej]));
      turn.set(key, (waiting = { resolve, reject, promise }));
    }
    return waiting.promise;
  }

  private send(turn: Map<string, Waiting>): void {
    if (this.turn === turn) this.turn = null;
    const keys = [...turn.keys()];
    this.store.getMany(keys).then(
      (values) => keys.forEach((key, index) => turn.get(key)!.resolve(values[index] ?? null)),
      (error: unknown) => turn.forEach((waiting) => waiting.reject(error)),
    );
  }
}
