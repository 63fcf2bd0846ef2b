import { readFileSync } from 'node:fs';
import { createSecureContext, type Server as TlsServer } from 'node:tls';
import { AppConfig } from '../config/app-config';

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/** The PEM certificate and key of TLS_CERT_FILE and TLS_KEY_FILE, or null when the service speaks plain HTTP. */
export function readTlsFiles(config: AppConfig): TlsFiles | null {
  if (!config.TLS_CERT_FILE || !config.TLS_KEY_FILE) return null;
  const files = { cert: readFileSync(config.TLS_CERT_FILE), key: readFileSync(config.TLS_KEY_FILE) };
  createSecureContext(files); // a key that does not match its certificate fails here, not at the first handshake
  return files;
}

/**
 * Serves the files as they are now to every new connection (a renewed certificate, on SIGHUP);
 * connections already open keep theirs. A pair that cannot be read or does not match throws and
 * leaves the one in service as it was.
 */
export function reloadTls(server: unknown, config: AppConfig): boolean {
  const files = readTlsFiles(config);
  if (!files) return false;
  (server as TlsServer).setSecureContext(files);
  return true;
}
