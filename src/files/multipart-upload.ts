import busboy from 'busboy';
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, WriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { storedFileName } from './file-names';

/** A file received into a temporary path, with what was measured while it streamed to disk. */
export interface ReceivedFile {
  name: string;
  size: number;
  sha256: string;
  tempPath: string;
}

export interface ReceiveOptions {
  /** The form field that carries the file. */
  field: string;
  maxBytes: number;
  /** Where the file is written while it arrives (on the same file system as its final place). */
  tempDir: string;
}

/** Room for boundaries and part headers before a declared Content-Length alone is too large. */
const MULTIPART_ALLOWANCE = 64 * 1024;

/**
 * Reads one file from a multipart/form-data request straight off the Node stream (adapter-agnostic:
 * Express leaves multipart unread, Fastify has a pass-through parser for it), hashing it with
 * SHA-256 while it streams into a temporary file; the file is never held in memory. Past `maxBytes`
 * it stops at once with FILE_TOO_LARGE and keeps nothing; the rest of the body is drained so the
 * answer reaches the client. Other fields are ignored; a second file part is refused.
 */
export async function receiveSingleFile(req: IncomingMessage, options: ReceiveOptions): Promise<ReceivedFile> {
  const { field, maxBytes, tempDir } = options;
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (type !== 'multipart/form-data') {
    throw new ServiceError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, `Send the file as multipart/form-data in the field "${field}"`);
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + MULTIPART_ALLOWANCE) throw tooLarge(maxBytes);

  let parser: busboy.Busboy;
  try {
    // busboy calls reaching fileSize a breach, so a file of exactly maxBytes needs one byte more.
    // Browsers and HTTP clients send a plain `filename="..."` as raw UTF-8; busboy's default reads it as latin1.
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: { fileSize: maxBytes + 1, files: 1, fields: 20, parts: 25, fieldSize: 64 * 1024 },
    });
  } catch (error) {
    throw new ServiceError(ErrorCode.BAD_REQUEST, 'Malformed multipart/form-data content type', { cause: error });
  }
  await mkdir(tempDir, { recursive: true });

  return new Promise<ReceivedFile>((resolve, reject) => {
    const abort = new AbortController();
    let saving: Promise<ReceivedFile> | undefined;
    let writer: WriteStream | undefined;
    let tempPath: string | undefined;
    let settled = false;

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      req.resume(); // drain what the client still sends
      abort.abort();
      const cleanup = async () => {
        await saving?.catch(() => undefined);
        // An aborted pipeline settles before its file stream has closed (or even opened, creating the file).
        if (writer && !writer.closed) await once(writer, 'close').catch(() => undefined);
        if (tempPath) await rm(tempPath, { force: true });
      };
      cleanup().then(
        () => reject(error),
        () => reject(error),
      );
    };

    parser.on('file', (name, stream, info) => {
      if (name !== field || saving) {
        stream.resume();
        return;
      }
      const path = (tempPath = join(tempDir, `${randomUUID()}.part`));
      const hash = createHash('sha256');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      stream.on('limit', () => fail(tooLarge(maxBytes)));
      writer = createWriteStream(path, { flags: 'wx', mode: 0o600 });
      saving = pipeline(stream, meter, writer, { signal: abort.signal }).then(() => {
        if (stream.truncated) throw tooLarge(maxBytes);
        return { name: storedFileName(info.filename), size, sha256: hash.digest('hex'), tempPath: path };
      });
      saving.catch(fail);
    });
    parser.on('filesLimit', () =>
      fail(new ServiceError(ErrorCode.BAD_REQUEST, `Send exactly one file, in the field "${field}"`)),
    );
    parser.on('partsLimit', () => fail(new ServiceError(ErrorCode.BAD_REQUEST, 'Too many form parts')));
    parser.on('fieldsLimit', () => fail(new ServiceError(ErrorCode.BAD_REQUEST, 'Too many form fields')));
    parser.on('error', (error: Error) =>
      fail(new ServiceError(ErrorCode.BAD_REQUEST, 'Malformed multipart/form-data body', { cause: error })),
    );
    parser.on('close', () => {
      if (!saving) {
        fail(
          new ServiceError(ErrorCode.BAD_REQUEST, `A file is required in the field "${field}"`, {
            details: [`${field} must be a file`],
          }),
        );
        return;
      }
      saving.then((file) => {
        if (settled) return;
        settled = true;
        resolve(file);
      }, fail);
    });
    req.on('error', (error) => fail(new ServiceError(ErrorCode.BAD_REQUEST, 'The upload was interrupted', { cause: error }))); // the client went away
    req.pipe(parser);
  });
}

function tooLarge(maxBytes: number): ServiceError {
  return new ServiceError(ErrorCode.FILE_TOO_LARGE, undefined, { details: { max_bytes: maxBytes } });
}
