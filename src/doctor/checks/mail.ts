import { AppConfig } from '../../config/app-config';
import { smtpAddress, SmtpTransport } from '../../mail/smtp-transport';
import { Finding, ok, warn, withTimeout } from './finding';

/**
 * Mail (decisions §26): off without SMTP_URL; with it, whether the server answers and takes the
 * credentials. A server down is a warning: mails wait in the outbox and are retried. Only the
 * server's address is ever shown, never the URL's user or password.
 */
export async function checkMail(config: AppConfig): Promise<Finding[]> {
  if (!config.SMTP_URL || !config.MAIL_FROM)
    return [ok('mail', 'not configured (SMTP_URL unset): no mail is sent; the storefront still shows bought cards')];
  const address = smtpAddress(config.SMTP_URL);
  const transport = new SmtpTransport(config.SMTP_URL, config.MAIL_FROM);
  try {
    await withTimeout(transport.verify(), 10_000, 'no answer within 10 s');
    return [ok('mail', `configured: ${address} answers, from ${config.MAIL_FROM}`)];
  } catch (error) {
    return [
      warn(
        'mail',
        `configured, but ${address} does not take mail: ${(error as Error).message}`,
        'check SMTP_URL (host, port, smtp:// or smtps://, user and password): mails wait in the outbox meanwhile',
      ),
    ];
  } finally {
    transport.close();
  }
}
