import { createServer, IncomingMessage, Server } from 'node:http';
import { hmacSignature, md5Sign } from '../../sdk/src';

/** The program a relay has cracked: its secrets are in every install, so the relay re-signs what it changes. */
export interface CrackedProgram {
  api_secret: string;
  legacy_secret: string;
}

/** What the relay swaps: the card typed by the user for its own valid card, and any session token for its card's session. */
export interface Swap {
  typedKey: string;
  validKey: string;
  validSessionToken: string;
}

/** One request the relay changed, with the service's answer to it: a success means the service was fooled. */
export interface Relayed {
  path: string;
  status: number;
  body: Record<string, unknown>;
}

export interface Relay {
  url: string;
  relayed: Relayed[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

/**
 * The relay attack of the red team's review, scripted: a proxy in front of the service that forwards each client
 * request with the card key typed swapped for a valid card of its own (Connect `user_key`, legacy
 * and V3 `kami`, SDK `card_key`), and a heartbeat's Bearer token swapped for that card's session,
 * keeping the client's nonce and re-signing with the program's secrets, then hands back the
 * service's genuine, signed answer byte for byte. Anything else passes through unchanged.
 */
export async function startRelay(serviceUrl: string, program: CrackedProgram, swap: Swap): Promise<Relay> {
  const relayed: Relayed[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const sent = await readBody(req);
      const path = (req.url ?? '/').split('?')[0];
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && name !== 'host' && !HOP_BY_HOP.has(name)) headers[name] = value;
      const { body, changed } = swapped(path, sent, headers, program, swap);
      const answer = await fetch(serviceUrl + req.url, {
        method: req.method,
        headers,
        body: req.method === 'GET' ? undefined : body,
        redirect: 'manual',
      });
      const bytes = Buffer.from(await answer.arrayBuffer());
      if (changed)
        relayed.push({ path, status: answer.status, body: JSON.parse(bytes.toString('utf8')) as Record<string, unknown> });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!HOP_BY_HOP.has(name)) out[name] = value;
      });
      res.writeHead(answer.status, out).end(bytes);
    })().catch((error: unknown) => res.writeHead(502).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, relayed, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The request as the relay forwards it; `changed` when it swapped something. */
function swapped(
  path: string,
  body: string,
  headers: Record<string, string>,
  program: CrackedProgram,
  swap: Swap,
): { body: string; changed: boolean } {
  const hmac = (newBody: string) => {
    headers['x-svc-signature'] = hmacSignature(program.api_secret, {
      method: 'POST',
      path,
      timestamp: headers['x-svc-timestamp'],
      nonce: headers['x-svc-nonce'],
      body: newBody,
    });
    return { body: newBody, changed: true };
  };
  const form = () => Object.fromEntries(new URLSearchParams(body));
  if (path.startsWith('/connect/') || path.startsWith('/conncet/')) {
    const fields = form();
    if (fields.user_key !== swap.typedKey) return { body, changed: false };
    return { body: new URLSearchParams({ ...fields, user_key: swap.validKey }).toString(), changed: true };
  }
  if (path === '/api/card_login' || path === '/api/kmlogon') {
    const fields = form();
    if (fields.kami !== swap.typedKey) return { body, changed: false };
    const rest: Record<string, string> = { ...fields, kami: swap.validKey };
    delete rest.sign;
    return { body: new URLSearchParams({ ...rest, sign: md5Sign(rest, program.legacy_secret) }).toString(), changed: true };
  }
  if (path === '/api/legacy/v3/cards/login') {
    const fields = form();
    return fields.kami === swap.typedKey
      ? hmac(new URLSearchParams({ ...fields, kami: swap.validKey }).toString())
      : { body, changed: false };
  }
  if (path === '/api/v1/cards/login') {
    const fields = JSON.parse(body) as Record<string, unknown>;
    return fields.card_key === swap.typedKey
      ? hmac(JSON.stringify({ ...fields, card_key: swap.validKey }))
      : { body, changed: false };
  }
  if (path === '/api/v1/cards/heartbeat') {
    headers.authorization = `Bearer ${swap.validSessionToken}`;
    return { body, changed: true };
  }
  return { body, changed: false };
}
