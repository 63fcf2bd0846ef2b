import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { realpathSync } from 'node:fs';
import { callService as call, Exit, freePort, signInService as signIn, spawnService } from '../../support/service-process';
import { acquireStores, AppStores, copyEmbeddedTemplate } from '../../support/stores';
import { ADMIN_PASSWORD } from '../../support/test-app';

/**
 * One process per data directory (src/database/data-dir-lock.ts): two `npm start`s on one DATA_DIR,
 * started at the same moment, as real service processes. One serves; the other is refused before it
 * opens the database, naming the holder, whichever ports they were given. The holder's death, even
 * by SIGKILL, frees the directory for the next start, which finds everything written before.
 */

/** Past this, the refused start did not come back "at once". */
const REFUSAL_WITHIN_MS = 30_000;

interface Contender {
  child: ChildProcess;
  port: number;
  exited: Promise<Exit>;
  output(): string;
}

const contenders: Contender[] = [];

function contend(env: Record<string, string>, port: number): Contender {
  const child = spawnService(env, port);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const contender = {
    child,
    port,
    exited: once(child, 'exit').then(([code, signal]) => ({ code, signal }) as Exit),
    output: () => output,
  };
  contenders.push(contender);
  return contender;
}

const running = (contender: Contender) => contender.child.exitCode === null && contender.child.signalCode === null;

/** Resolves once `contender` answers /health/ready with 200; rejects, with its output, when it exits first. */
async function ready(contender: Contender): Promise<{ url: string }> {
  const url = `http://127.0.0.1:${contender.port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (!running(contender)) throw new Error(`the holder exited while starting:\n${contender.output()}`);
    const answered = await fetch(`${url}/health/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (answered) return { url };
    if (Date.now() > deadline) throw new Error(`the holder was not ready within 60 s:\n${contender.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts two services on `ports` at once; the first to exit is the refused one, the other must serve. */
async function race(env: Record<string, string>, ports: [number, number]) {
  const pair = ports.map((port) => contend(env, port));
  let timer: NodeJS.Timeout | undefined;
  const refused = await Promise.race([
    ...pair.map((contender) => contender.exited.then(() => contender)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`neither start was refused:\n${pair.map((c) => c.output()).join('\n---\n')}`)),
        REFUSAL_WITHIN_MS,
      );
    }),
  ]).finally(() => clearTimeout(timer));
  const holder = pair.find((contender) => contender !== refused)!;
  return { holder, service: await ready(holder), refused, refusal: await refused.exited };
}

(process.env.DATABASE_URL ? describe.skip : describe)('one process per data directory (e2e, real service processes)', () => {
  let stores: AppStores;
  let env: Record<string, string>;
  let dataDir: string;

  beforeAll(async () => {
    stores = await acquireStores({ DATABASE_URL: '', REDIS_URL: '' });
    copyEmbeddedTemplate(stores.env.DATA_DIR);
    // At info, a start that opened the database or listened would say so.
    env = { ...stores.env, ADMIN_USERNAME: 'admin', ADMIN_PASSWORD, LOG_LEVEL: 'info', ACCESS_LOG: 'off' };
    dataDir = realpathSync(stores.env.DATA_DIR);
  });

  afterAll(async () => {
    for (const contender of contenders.filter(running)) contender.child.kill('SIGKILL');
    await Promise.all(contenders.map((contender) => contender.exited));
    await stores?.leave();
  });

  const refusalOf = (holder: Contender) =>
    `Failed to start: the data directory ${dataDir} is in use by another process (pid ${holder.child.pid}, port ${holder.port}): stop it first, or give this one another DATA_DIR\n`;

  /** An author made on `service`: its sign-in later proves the row outlived the process. */
  async function writeAuthor(service: { url: string }, name: string) {
    const admin = await signIn(service, 'admin', ADMIN_PASSWORD);
    const author = { username: `${name}${Date.now().toString(36)}`, password: `author-password-${name}` };
    await call(service, 'POST', '/admin/v1/authors', author, admin, 201);
    return author;
  }

  it('serves one of two starts on two ports, refuses the other at once naming the holder, then the same on one port; a SIGKILL frees it', async () => {
    const twoPorts = await race(env, [await freePort(), await freePort()]);
    expect(twoPorts.refusal).toEqual({ code: 1, signal: null });
    expect(twoPorts.refused.output()).toContain(refusalOf(twoPorts.holder));
    // Plainly: the message, no stack under it; and the refused start never opened the database or listened.
    expect(twoPorts.refused.output()).not.toMatch(/^\s+at /m);
    expect(twoPorts.refused.output()).not.toContain('embedded PostgreSQL started');
    expect(twoPorts.refused.output()).not.toContain('listening on');
    expect(twoPorts.holder.output()).toContain('listening on');
    const first = await writeAuthor(twoPorts.service, 'lockfirst');
    twoPorts.holder.child.kill('SIGTERM');
    await twoPorts.holder.exited;

    const port = await freePort();
    const onePort = await race(env, [port, port]);
    expect(onePort.refusal).toEqual({ code: 1, signal: null });
    expect(onePort.refused.output()).toContain(refusalOf(onePort.holder));
    expect(onePort.refused.output()).not.toContain('EADDRINUSE');
    const second = await writeAuthor(onePort.service, 'locksecond');
    onePort.holder.child.kill('SIGKILL');
    expect(await onePort.holder.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const next = contend(env, await freePort());
    const service = await ready(next);
    for (const author of [first, second])
      expect(await signIn(service, author.username, author.password)).toEqual(expect.any(String));
    next.child.kill('SIGTERM');
    await next.exited;
  });
});
