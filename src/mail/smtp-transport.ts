import { createTransport, type Transporter } from 'nodemailer';

/** Each step of a conversation with the SMTP server gives up after this long. */
const TIMEOUT_MS = 20_000;

/** How one send ended: the server's reply code (null: none came), and whether trying again may help. */
export interface SmtpOutcome {
  ok: boolean;
  code: number | null;
  error: string | null;
  /** A 5xx reply to the message or its recipient: the same mail would be refused again. */
  permanent: boolean;
}

/** A mail as it goes out. */
export interface OutgoingMail {
  messageId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** `smtp(s)://host:port` of an SMTP_URL, without its user and password: what logs and answers may show. */
export function smtpAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'an unreadable SMTP_URL';
  }
}

/** An SMTP error's text, without the URL's user and password wherever a library quoted them. */
export function smtpErrorText(error: unknown, url: string): string {
  const e = error as { response?: unknown; message?: unknown };
  let text = typeof e?.response === 'string' && e.response ? e.response : String(e?.message ?? error);
  try {
    const { username, password } = new URL(url);
    for (const secret of [password, decodeURIComponent(password), username].filter((s) => s.length >= 3))
      text = text.split(secret).join('***');
  } catch {
    // an unreadable URL has no credentials to hide
  }
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^@\s/]*@/gi, '$1***@').slice(0, 300);
}

/** One SMTP server (SMTP_URL), a fresh connection per mail: sending is rare and a dead connection costs nothing. */
export class SmtpTransport {
  private readonly transporter: Transporter;

  constructor(
    private readonly url: string,
    private readonly from: string,
  ) {
    this.transporter = createTransport({
      url,
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
      logger: false,
      debug: false,
    });
  }

  async send(mail: OutgoingMail): Promise<SmtpOutcome> {
    try {
      const info = await this.transporter.sendMail({
        from: this.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
      });
      const code = Number(/^(\d{3})/.exec(info.response ?? '')?.[1] ?? 250);
      return { ok: true, code, error: null, permanent: false };
    } catch (error) {
      const e = error as { responseCode?: number; code?: string };
      const code = typeof e.responseCode === 'number' ? e.responseCode : null;
      // An authentication refusal is the settings' fault, not the mail's: it may pass once they are fixed.
      const permanent = code !== null && code >= 500 && code < 600 && e.code !== 'EAUTH';
      return { ok: false, code, error: smtpErrorText(error, this.url), permanent };
    }
  }

  /** The server answers, and takes the credentials when SMTP_URL has some. */
  async verify(): Promise<void> {
    try {
      await this.transporter.verify();
    } catch (error) {
      throw new Error(smtpErrorText(error, this.url));
    }
  }

  close(): void {
    this.transporter.close();
  }
}
