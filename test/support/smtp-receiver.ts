import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the test's SMTP server took it: envelope, headers and each text part decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  user: string | undefined;
  headers: Record<string, string>;
  /** The text/plain and text/html parts, transfer encoding undone. */
  text: string;
  html: string;
}

/** Undoes quoted-printable (soft line breaks, =XX bytes as UTF-8). */
function fromQuotedPrintable(body: string): string {
  const bytes: number[] = [];
  const joined = body.replace(/=\r?\n/g, '');
  for (let i = 0; i < joined.length; i++) {
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function headersOf(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** The decoded text parts of a MIME message (single part or multipart/alternative, as nodemailer writes them). */
function parts(raw: string): { headers: Record<string, string>; text: string; html: string } {
  const split = (s: string) => {
    const at = s.search(/\r?\n\r?\n/);
    return at < 0 ? [s, ''] : [s.slice(0, at), s.slice(at).replace(/^\r?\n\r?\n/, '')];
  };
  const [head, body] = split(raw);
  const headers = headersOf(head);
  const decode = (h: Record<string, string>, b: string) => {
    const encoding = (h['content-transfer-encoding'] ?? '').toLowerCase();
    if (encoding === 'base64') return Buffer.from(b.replace(/\s+/g, ''), 'base64').toString('utf8');
    if (encoding === 'quoted-printable') return fromQuotedPrintable(b);
    return b;
  };
  const boundary = /boundary="?([^";]+)"?/.exec(headers['content-type'] ?? '')?.[1];
  let text = '';
  let html = '';
  const chunks = boundary ? body.split(`--${boundary}`).slice(1, -1) : [raw];
  for (const chunk of chunks) {
    const [h, b] = split(chunk.replace(/^\r?\n/, ''));
    const partHeaders = headersOf(h);
    const type = partHeaders['content-type'] ?? '';
    if (type.startsWith('text/plain')) text = decode(partHeaders, b);
    if (type.startsWith('text/html')) html = decode(partHeaders, b);
  }
  return { headers, text, html };
}

/**
 * A real SMTP server (the `smtp-server` package) on a free local port, taking any user and password
 * (AUTH PLAIN or LOGIN without TLS) and keeping what it was sent. `refuse` answers the next mails'
 * DATA with an SMTP error (e.g. 451) instead of taking them.
 */
export class SmtpReceiver {
  readonly mails: ReceivedMail[] = [];
  /** Replies for the next DATA commands, used up one per mail; empty: take the mail. */
  readonly refusals: Array<{ code: number; message: string }> = [];
  readonly users: string[] = [];
  private server?: SMTPServer;
  private portNumber = 0;

  get port(): number {
    return this.portNumber;
  }

  /** `smtp://user:password@127.0.0.1:port`. */
  url(user = 'shop', password = 'smtp-pass-5ecret'): string {
    return `smtp://${user}:${password}@127.0.0.1:${this.portNumber}`;
  }

  async start(): Promise<void> {
    this.server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      onAuth: (auth, _session, callback) => {
        this.users.push(auth.username ?? '');
        callback(null, { user: auth.username });
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const refusal = this.refusals.shift();
          if (refusal) {
            const error = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
            callback(error);
            return;
          }
          const { headers, text, html } = parts(Buffer.concat(chunks).toString('utf8'));
          this.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user: session.user as string | undefined,
            headers,
            text,
            html,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', () => resolve());
    });
    this.portNumber = (this.server.server.address() as AddressInfo).port;
  }

  /** Mails whose recipient is `to`. */
  to(address: string): ReceivedMail[] {
    return this.mails.filter((m) => m.to.includes(address));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
