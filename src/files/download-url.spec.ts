import { createHmac } from 'node:crypto';
import { checkDownload, deriveDownloadKey, downloadSignature, signedDownloadPath } from './download-url';

const KEY = deriveDownloadKey(Buffer.alloc(32, 7));
const ID = '0b6f3c1e-8d2a-4f5b-9c3d-2e1f0a9b8c7d';

describe('download addresses', () => {
  it('derives a 32-byte key apart from the encryption key, the same for the same key', () => {
    expect(KEY).toHaveLength(32);
    expect(KEY.equals(Buffer.alloc(32, 7))).toBe(false);
    expect(deriveDownloadKey(Buffer.alloc(32, 7)).equals(KEY)).toBe(true);
    expect(deriveDownloadKey(Buffer.alloc(32, 8)).equals(KEY)).toBe(false);
  });

  it('signs `${id}.${expires}` with HMAC-SHA256, as lowercase hex', () => {
    expect(downloadSignature(KEY, ID, 1700000000)).toBe(createHmac('sha256', KEY).update(`${ID}.1700000000`).digest('hex'));
  });

  it('issues /api/download/{id}?expires=…&sig=…', () => {
    const path = signedDownloadPath(KEY, ID, 1700000600);
    expect(path).toBe(`/api/download/${ID}?expires=1700000600&sig=${downloadSignature(KEY, ID, 1700000600)}`);
  });

  it('accepts its own address until it expires, then calls it expired', () => {
    const sig = downloadSignature(KEY, ID, 1000);
    expect(checkDownload(KEY, ID, '1000', sig, 999)).toBe('valid');
    expect(checkDownload(KEY, ID, '1000', sig, 1000)).toBe('valid');
    expect(checkDownload(KEY, ID, '1000', sig, 1001)).toBe('expired');
  });

  it('refuses a missing, malformed or tampered address', () => {
    const sig = downloadSignature(KEY, ID, 1000);
    expect(checkDownload(KEY, ID, undefined, sig, 0)).toBe('invalid');
    expect(checkDownload(KEY, ID, '1000', undefined, 0)).toBe('invalid');
    expect(checkDownload(KEY, ID, ['1000', '1000'], sig, 0)).toBe('invalid');
    expect(checkDownload(KEY, ID, '1000', sig.toUpperCase(), 0)).toBe('invalid');
    expect(checkDownload(KEY, ID, '01000', sig, 0)).toBe('invalid');
    expect(checkDownload(KEY, ID, '2000', sig, 0)).toBe('invalid'); // a later expiry under the old signature
    expect(checkDownload(KEY, ID.replace('0b', '1b'), '1000', sig, 0)).toBe('invalid'); // another file
    expect(checkDownload(KEY, ID, '1000', sig.slice(0, 63) + (sig[63] === '0' ? '1' : '0'), 0)).toBe('invalid');
    expect(checkDownload(deriveDownloadKey(Buffer.alloc(32, 9)), ID, '1000', sig, 0)).toBe('invalid'); // another key
  });
});
