import type { Readable } from 'node:stream';

// Where the files of uploaded covers live: this server's uploads folder (the default, enough
// for one machine), or an S3-compatible bucket every server shares. Both take and give whole
// files by name ("<hash>-<width>.webp"); the name carries the upload's hash, so a file never
// changes once written.

/** A cover's bytes never change under its name (the name is the upload's hash): browsers and CDNs keep it a year. */
export const COVER_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const COVER_CONTENT_TYPE = 'image/webp';

/** A stored cover file, as the shop streams it to a browser. */
export interface CoverFile {
  body: Readable;
  length: number | undefined;
}

interface StoreMethods {
  /** Writes one whole file; rejects when it could not be stored. */
  put(file: string, data: Buffer): Promise<void>;
  /** Whether the file is stored. */
  has(file: string): Promise<boolean>;
  /** Deletes the files; a file already gone is no error. */
  remove(files: string[]): Promise<void>;
  /** Resolves when the store answers (the bucket exists and the credentials reach it). */
  ping(): Promise<void>;
}

export interface DiskStore extends StoreMethods {
  kind: 'disk';
  /** The covers folder, served as static files. */
  dir: string;
}

export interface BucketStore extends StoreMethods {
  kind: 'bucket';
  bucket: string;
  /** The file, or null when there is none under that name. */
  read(file: string): Promise<CoverFile | null>;
}

export type CoverStore = DiskStore | BucketStore;
