import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathOf } from '../http/envelope/family';
import type { ConsoleFile } from './console-files';

export const CONSOLE_PATH = '/console';
/** The card holder's self-service page (decisions §14): a second page of the same build, its assets under /console/assets. */
export const PORTAL_PATH = '/portal';
const PORTAL_PAGE = 'portal.html';
/**
 * A program's storefront page and its return page (decisions §26): `/shop/<program id>` and
 * `/shop/<program id>/return`, a third page of the build. Only an 8-digit program id matches, so
 * the storefront's API (`/shop/api/…`) and the gateways' notifications (`/shop/notify/…`) go on.
 */
const SHOP_PAGE_PATH = /^\/shop\/[1-9][0-9]{7}(\/return)?\/?$/;
const SHOP_PAGE = 'shop.html';

/**
 * What the console's page may load: its own scripts only (no inline script, no eval), styles from
 * itself plus inline ones (antd's CSS-in-JS writes <style> elements at run time: docs/decisions.md),
 * and calls to this service only.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The storefront page's: the console's, but the console may show it in a frame (its preview of the
 * storefront), so this service's own pages may frame it. Paying leaves by `location.assign`, which
 * no directive restricts; its calls stay on this service.
 */
export const SHOP_CSP = CONSOLE_CSP.replace("frame-ancestors 'none'", "frame-ancestors 'self'");

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const PLAIN_TEXT = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };
const PORTAL_NEEDS_HTTPS = 'The card-holder portal needs HTTPS; plain HTTP is refused (10010 HTTPS_REQUIRED).\n';
const NOT_BUILT = 'The console has not been built: run `npm run build` (npm start does it), then restart the service.\n';

/** The storefront page's headers in place of the console's: framed by this service's own pages only. */
const SHOP_HEADERS: Record<string, string> = {
  ...SECURITY_HEADERS,
  'Content-Security-Policy': SHOP_CSP,
  'X-Frame-Options': 'SAMEORIGIN',
};

function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body?: Buffer | string,
): void {
  res.removeHeader('X-Powered-By'); // Express sets it before any middleware; helmet, which drops it, never runs here
  res.writeHead(status, { ...SECURITY_HEADERS, ...headers });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function redirect(req: IncomingMessage, res: ServerResponse, location: string): void {
  send(
    req,
    res,
    302,
    { Location: location, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' },
    `Redirecting to ${location}\n`,
  );
}

function sendFile(req: IncomingMessage, res: ServerResponse, file: ConsoleFile, pageHeaders?: Record<string, string>): void {
  const headers: Record<string, string> = {
    ...pageHeaders,
    'Content-Type': file.contentType,
    'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ETag: file.etag,
    Vary: 'Accept-Encoding',
  };
  if (req.headers['if-none-match'] === file.etag) return send(req, res, 304, headers);
  const gzipped = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) ? file.gzipped() : undefined;
  const body = gzipped ?? file.body;
  if (gzipped) headers['Content-Encoding'] = 'gzip';
  headers['Content-Length'] = String(body.length);
  send(req, res, 200, headers, body);
}

/**
 * Serves the console at /console as a single-page app on either HTTP adapter (plain Node middleware):
 * a built file by its path, any other page (a deep link such as /console/projects/x) as index.html
 * so the console's router shows it, a missing build asset as 404. `/` redirects to the console,
 * `/portal` (and anything below it) is the card-holder portal's page, and `/shop/<program id>` (and
 * its `/return`) the storefront's, which the console's own pages may frame. Only GET and HEAD are answered
 * here; anything else, and every API path, goes on to the service. `refusesPlainHttp` (production,
 * https-required.guard.ts) makes the portal's page a 403 over plain HTTP, as its API is: a holder
 * must not learn to type a card key into a page an attacker on the way can rewrite.
 */
export function consoleMiddleware(
  files: Map<string, ConsoleFile> | undefined,
  refusesPlainHttp: (req: IncomingMessage) => boolean = () => false,
) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const url = req.url ?? '/';
    const path = pathOf(url);
    const query = url.slice(path.length);
    if (path === '/') return redirect(req, res, `${CONSOLE_PATH}/${query}`);
    if (path === CONSOLE_PATH) return redirect(req, res, `${CONSOLE_PATH}/${query}`);
    if (SHOP_PAGE_PATH.test(path)) {
      const page = files?.get(SHOP_PAGE);
      return page ? sendFile(req, res, page, SHOP_HEADERS) : send(req, res, 503, PLAIN_TEXT, NOT_BUILT);
    }
    const portal = path === PORTAL_PATH || path.startsWith(`${PORTAL_PATH}/`);
    if (!portal && !path.startsWith(`${CONSOLE_PATH}/`)) return next();
    if (portal && refusesPlainHttp(req)) return send(req, res, 403, PLAIN_TEXT, PORTAL_NEEDS_HTTPS);
    if (!files)
      return send(req, res, 503, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }, NOT_BUILT);
    if (portal) {
      const page = files.get(PORTAL_PAGE);
      return page
        ? sendFile(req, res, page)
        : send(req, res, 503, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }, NOT_BUILT);
    }
    let name: string;
    try {
      name = decodeURIComponent(path.slice(CONSOLE_PATH.length + 1));
    } catch {
      name = '';
    }
    const file = files.get(name);
    if (file) return sendFile(req, res, file);
    // A build asset that is not there (an old tab after a new build) must not get the page instead.
    if (name.startsWith('assets/') || name.includes('.')) {
      return send(req, res, 404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }, 'Not found\n');
    }
    sendFile(req, res, files.get('index.html')!);
  };
}
