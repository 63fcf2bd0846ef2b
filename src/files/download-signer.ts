import { unixSeconds } from '../common/time';
import { checkDownload, DownloadCheck, signedDownloadPath } from './download-url';

export interface IssuedDownload {
  /** `/api/download/{id}?expires=…&sig=…` (an absolute path on this service). */
  url: string;
  /** Unix seconds after which the address is refused. */
  expires: number;
}

/**
 * Issues and checks download addresses with a key derived from the app's encryption key (built in
 * FilesModule), valid for DOWNLOAD_URL_TTL_SECONDS.
 */
export class DownloadSigner {
  constructor(
    private readonly key: Buffer,
    readonly ttlSeconds: number,
  ) {}

  issue(fileId: string, now = unixSeconds()): IssuedDownload {
    const expires = now + this.ttlSeconds;
    return { url: signedDownloadPath(this.key, fileId, expires), expires };
  }

  check(fileId: string, expires: unknown, sig: unknown, now = unixSeconds()): DownloadCheck {
    return checkDownload(this.key, fileId, expires, sig, now);
  }
}
