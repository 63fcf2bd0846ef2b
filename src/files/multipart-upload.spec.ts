import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { receiveSingleFile } from './multipart-upload';

const BOUNDARY = '----cardkey-test-boundary';

type Part = { name: string; filename?: string; body: Buffer | string };

function multipart(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const type = p.filename !== undefined ? '\r\nContent-Type: application/octet-stream' : '';
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`),
      Buffer.from(p.body),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** A request stream that sends `body` in small chunks, like a socket would. */
function request(body: Buffer, headers: Record<string, string> = {}): IncomingMessage {
  const stream = new PassThrough();
  Object.assign(stream, {
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(body.length), ...headers },
  });
  setImmediate(() => {
    for (let i = 0; i < body.length; i += 7919) stream.write(body.subarray(i, i + 7919));
    stream.end();
  });
  return stream as unknown as IncomingMessage;
}

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe('receiveSingleFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ck-multipart-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const options = (maxBytes = 100_000) => ({ field: 'file', maxBytes, tempDir: join(dir, 'incoming') });

  it('streams the file to a temporary path with its size and SHA-256, ignoring other fields', async () => {
    const bytes = randomBytes(90_001);
    const body = multipart([
      { name: 'note', body: 'hello' },
      { name: 'file', filename: 'C:\\x\\app.bin', body: bytes },
    ]);
    const file = await receiveSingleFile(request(body), options());
    expect(file).toEqual({
      name: 'app.bin',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      tempPath: expect.any(String),
    });
    expect(readFileSync(file.tempPath).equals(bytes)).toBe(true);
  });

  it('reads a file name sent as raw UTF-8 (what browsers and HTTP clients send) exactly', async () => {
    const file = await receiveSingleFile(request(multipart([{ name: 'file', filename: '报告-ü.zip', body: 'x' }])), options());
    expect(file.name).toBe('报告-ü.zip');
  });

  it("reads an RFC 5987 filename*=UTF-8'' name exactly", async () => {
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''${encodeURIComponent('报告-ü.zip')}\r\n\r\n`;
    const body = Buffer.from(`${head}x\r\n--${BOUNDARY}--\r\n`);
    expect((await receiveSingleFile(request(body), options())).name).toBe('报告-ü.zip');
  });

  it('takes an empty file', async () => {
    const file = await receiveSingleFile(request(multipart([{ name: 'file', filename: 'empty', body: '' }])), options());
    expect(file).toMatchObject({ name: 'empty', size: 0, sha256: createHash('sha256').digest('hex') });
  });

  it('accepts exactly the limit and refuses one byte more, keeping nothing', async () => {
    await expect(
      receiveSingleFile(request(multipart([{ name: 'file', filename: 'a', body: randomBytes(1000) }])), options(1000)),
    ).resolves.toMatchObject({ size: 1000 });
    rmSync(join(dir, 'incoming'), { recursive: true });
    const error = await failure(
      receiveSingleFile(request(multipart([{ name: 'file', filename: 'a', body: randomBytes(1001) }])), options(1000)),
    );
    expect(error).toMatchObject({ code: ErrorCode.FILE_TOO_LARGE, httpStatus: 413, details: { max_bytes: 1000 } });
    expect(readdirSync(join(dir, 'incoming'))).toEqual([]);
  });

  it('refuses a declared Content-Length far past the limit before reading anything', async () => {
    const req = request(multipart([{ name: 'file', filename: 'a', body: 'x' }]), { 'content-length': String(10_000_000) });
    expect((await failure(receiveSingleFile(req, options(1000)))).code).toBe(ErrorCode.FILE_TOO_LARGE);
  });

  it('refuses a body without the file field', async () => {
    const error = await failure(
      receiveSingleFile(
        request(
          multipart([
            { name: 'other', filename: 'a', body: 'x' },
            { name: 'file', body: 'not a file' },
          ]),
        ),
        options(),
      ),
    );
    expect(error.code).toBe(ErrorCode.BAD_REQUEST);
    expect(error.details).toEqual(['file must be a file']);
  });

  it('refuses a second file', async () => {
    const body = multipart([
      { name: 'file', filename: 'a', body: 'x' },
      { name: 'file', filename: 'b', body: 'y' },
    ]);
    expect((await failure(receiveSingleFile(request(body), options()))).code).toBe(ErrorCode.BAD_REQUEST);
    expect(readdirSync(join(dir, 'incoming'))).toEqual([]);
  });

  it('refuses a truncated body and another content type', async () => {
    const body = multipart([{ name: 'file', filename: 'a', body: randomBytes(5000) }]);
    const cut = body.subarray(0, 3000);
    expect((await failure(receiveSingleFile(request(cut), options()))).code).toBe(ErrorCode.BAD_REQUEST);
    expect(readdirSync(join(dir, 'incoming'))).toEqual([]);
    const json = request(Buffer.from('{}'), { 'content-type': 'application/json' });
    expect((await failure(receiveSingleFile(json, options()))).code).toBe(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
    const noBoundary = request(body, { 'content-type': 'multipart/form-data' });
    expect((await failure(receiveSingleFile(noBoundary, options()))).code).toBe(ErrorCode.BAD_REQUEST);
  });
});
