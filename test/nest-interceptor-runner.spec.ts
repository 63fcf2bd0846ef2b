import 'reflect-metadata';
import {
  CallHandler,
  Controller,
  ExecutionContext,
  Get,
  INestApplication,
  Injectable,
  Module,
  NestInterceptor,
  StreamableFile,
  UseInterceptors,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ExpressAdapter } from '@nestjs/platform-express';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { map, NEVER, Observable, of } from 'rxjs';

// The route runner of @nestjs/core is carried with a patch (patches/, docs/performance.md,
// "Envelope interceptors"): a route with an interceptor no longer builds a ReplaySubject and a
// takeUntil/switchMap pipeline for every request. These are the behaviours that pipeline served,
// on both adapters, so that the patch can be dropped or renewed against them.

/** What a handler's Observable saw: subscribed, then torn down. */
const handlerSubscriptions = { subscribed: 0, tornDown: 0 };

@Injectable()
class WrapInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((value) => (value instanceof StreamableFile ? value : { wrapped: value })));
  }
}

@Controller()
@UseInterceptors(WrapInterceptor)
class RunnerController {
  @Get('plain')
  plain(): string {
    return 'plain';
  }

  @Get('promise')
  async promise(): Promise<string> {
    await new Promise((resolve) => setImmediate(resolve));
    return 'later';
  }

  @Get('observable')
  observable(): Observable<string> {
    return of('first', 'last');
  }

  @Get('never')
  never(): Observable<string> {
    return new Observable<string>(() => {
      handlerSubscriptions.subscribed += 1;
      const inner = NEVER.subscribe();
      return () => {
        handlerSubscriptions.tornDown += 1;
        inner.unsubscribe();
      };
    });
  }

  @Get('file')
  file(): StreamableFile {
    return new StreamableFile(Readable.from([Buffer.from('file bytes')]), { type: 'text/plain' });
  }

  @Get('fails')
  fails(): never {
    throw new Error('handler failed');
  }
}

@Module({ controllers: [RunnerController], providers: [WrapInterceptor] })
class RunnerModule {}

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each([
  ['fastify', () => new FastifyAdapter()],
  ['express', () => new ExpressAdapter()],
])('a route with an interceptor, on %s', (_name, adapter) => {
  let app: INestApplication;
  let port: number;

  beforeAll(async () => {
    app = await NestFactory.create(RunnerModule, adapter(), { logger: false });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
  });

  afterAll(() => app.close());

  it('answers what the interceptor made of a plain value, a promise and an Observable (its last value)', async () => {
    expect(await get(port, '/plain')).toEqual({ status: 200, body: '{"wrapped":"plain"}' });
    expect(await get(port, '/promise')).toEqual({ status: 200, body: '{"wrapped":"later"}' });
    expect(await get(port, '/observable')).toEqual({ status: 200, body: '{"wrapped":"last"}' });
  });

  it('sends a file the handler streams through the interceptor', async () => {
    expect(await get(port, '/file')).toEqual({ status: 200, body: 'file bytes' });
  });

  it("answers 500 for a handler's error, and goes on serving", async () => {
    expect((await get(port, '/fails')).status).toBe(500);
    expect(await get(port, '/plain')).toEqual({ status: 200, body: '{"wrapped":"plain"}' });
  });

  it("tears down the handler's Observable when the client goes away", async () => {
    const before = { ...handlerSubscriptions };
    const req = httpRequest({ host: '127.0.0.1', port, path: '/never' });
    req.on('error', () => undefined);
    req.end();
    await until(() => handlerSubscriptions.subscribed > before.subscribed, 'the handler to be subscribed');
    expect(handlerSubscriptions.tornDown).toBe(before.tornDown);
    req.destroy();
    await until(() => handlerSubscriptions.tornDown > before.tornDown, 'the teardown');
    expect(await get(port, '/plain')).toEqual({ status: 200, body: '{"wrapped":"plain"}' });
  });
});
