import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; created_at: string; project_id: string; data: Record<string, unknown> };
}

/** A local receiver: records every POST and answers the next status queued (200 when none is). */
export class Receiver {
  readonly received: Received[] = [];
  readonly statuses: number[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.received.push({ headers: req.headers, body, json: JSON.parse(body) });
        const status = this.statuses.shift() ?? 200;
        res
          .writeHead(status, { 'content-type': 'text/plain' })
          .end(status === 200 ? 'thanks' : `failure ${status} ` + 'x'.repeat(3000));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  of(type: string): Received[] {
    return this.received.filter((r) => r.json.type === type);
  }
}

/** Polls until `check` gives a value (not undefined/false), or fails after `ms`. */
export async function eventually<T>(check: () => T | Promise<T>, ms = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
