import busboy from 'busboy';
import type { Request } from 'express';
import { BadRequest, HttpError } from './errors.ts';

export interface MultipartForm {
  fields: Record<string, string>;
  /** The one file's bytes, or null when the form came without one (an empty file input). */
  file: Buffer | null;
}

export interface MultipartLimits {
  /** The form field that carries the file. */
  fileField: string;
  maxFileBytes: number;
  /** Said (413) when the file is larger. */
  tooLargeMessage: string;
}

// Room for the other fields and the boundaries around them.
const FORM_OVERHEAD = 64 * 1024;
// An oversized file is read to its end (and thrown away) so a browser shows the answer rather
// than a dropped connection; past this many bytes the upload is cut off instead.
const DISCARD_LIMIT = 16 * 1024 * 1024;
const UNREADABLE = 'This form could not be read. Please choose the file again.';

/**
 * Reads a multipart form holding at most one file, keeping no more than `maxFileBytes` of it in
 * memory. Too large a file is a 413: a body declared larger than 16 MB is refused before a byte
 * of it is read, and one sent without a length is cut off there; a smaller one is read to its
 * end and thrown away, so the browser shows the answer.
 */
export function readMultipart(req: Request, { fileField, maxFileBytes, tooLargeMessage }: MultipartLimits): Promise<MultipartForm> {
  if (!req.is('multipart/form-data')) return Promise.reject(new BadRequest(UNREADABLE));
  const declared = Number(req.get('content-length') ?? 0);
  if (declared > DISCARD_LIMIT) return Promise.reject(new HttpError(413, tooLargeMessage));
  if (declared > maxFileBytes + FORM_OVERHEAD) return discard(req).then(() => Promise.reject(new HttpError(413, tooLargeMessage)));

  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxFileBytes, fields: 10, fieldSize: 4096, parts: 11 } });
    } catch {
      // busboy refuses headers it cannot read (no boundary, an unknown content type): the
      // client's malformed form, answered 400 with a readable message.
      return reject(new BadRequest(UNREADABLE));
    }
    const fields: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let received = false;
    let tooLarge = false;
    let read = 0;

    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== fileField) return void stream.resume();
      // An empty file input still sends a part, with no file name.
      received = info.filename !== undefined && info.filename !== '';
      stream.on('data', (chunk: Buffer) => {
        if (!tooLarge) chunks.push(chunk);
      });
      stream.on('limit', () => {
        tooLarge = true;
        chunks.length = 0;
      });
    });
    parser.on('error', () => reject(new BadRequest(UNREADABLE)));
    parser.on('close', () => {
      if (tooLarge) return reject(new HttpError(413, tooLargeMessage));
      const file = received ? Buffer.concat(chunks) : null;
      resolve({ fields, file: file && file.length ? file : null });
    });
    // A browser that gives up part-way leaves nothing to answer, and nothing is kept.
    req.once('close', () => {
      if (!req.complete) reject(new BadRequest(UNREADABLE));
    });
    // A body sent without a length is counted as it comes.
    req.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > DISCARD_LIMIT) {
        req.unpipe(parser);
        req.destroy();
        reject(new HttpError(413, tooLargeMessage));
      }
    });
    req.pipe(parser);
  });
}

function discard(req: Request): Promise<void> {
  return new Promise((resolve) => {
    req
      .on('end', resolve)
      .on('error', () => resolve())
      .on('close', resolve)
      .resume();
  });
}
