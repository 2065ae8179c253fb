import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import type { Sharp, SharpOptions } from 'sharp';
import { HttpError, Unavailable } from '../../../web/errors.ts';
import { coverFileName } from '../../catalog/cover.ts';
import type { CoverStore } from '../../covers/cover-store.ts';

// Turns an uploaded cover into the files the shop serves: checked from its bytes, never its
// name or declared type, and resized into a few widths so a phone downloads a small one.

export const MAX_COVER_BYTES = 2 * 1024 * 1024;
/**
 * Up to 960: a book page's cover is about 450 CSS px wide at most, twice that on a sharp screen.
 * 800 is for a phone's one-column catalogue (about 330 CSS px, 650 device pixels at 2x).
 */
export const COVER_WIDTHS = [160, 320, 480, 640, 800, 960] as const;
// A small file can still decode into a huge image; this keeps one upload's memory bounded
// while still taking a print-resolution cover.
const MAX_PIXELS = 25_000_000;
const ACCEPTED = new Set(['jpeg', 'png', 'webp']);

export const COVER_MESSAGES = {
  missing: 'Choose a cover image to upload.',
  tooLarge: 'The cover must be 2 MB or smaller.',
  wrongType: 'The cover must be a JPEG, PNG or WebP image.',
  svg: 'SVG images are not accepted as covers: please upload a JPEG, PNG or WebP image.',
  tooManyPixels: 'The image is too large: at most 25 megapixels.',
  unreadable: 'The image could not be read. Please try another file.',
  notStored:
    "The cover could not be saved: the storage that keeps the shop's pictures did not answer, so nothing was changed. Please try again in a few minutes; if it keeps happening, tell whoever hosts the shop.",
} as const;

/** A cover whose files could not all be stored: nothing points at it, and the operator is told in words (503). */
export class CoverNotStored extends Unavailable {
  constructor(
    readonly coverName: string,
    /** The files this upload would have written, for whoever tidies up after it. */
    readonly files: string[],
    /** The store's own answer, for the log. */
    override readonly cause: unknown,
  ) {
    super(COVER_MESSAGES.notStored, 60);
  }
}

export interface StoredCover {
  /** The files' stem: a hash of the upload, so a new cover gets new addresses. */
  name: string;
  /** The largest stored copy's size. */
  width: number;
  height: number;
  widths: number[];
}

/** The widths to store: never wider than the original, which is kept as the last if it falls between. */
export function widthsFor(originalWidth: number): number[] {
  const below = COVER_WIDTHS.filter((w) => w < originalWidth);
  const top = Math.min(originalWidth, Math.max(...COVER_WIDTHS));
  return [...below.filter((w) => w < top), top];
}

// One decode at a time in each process: every decode holds a whole image in memory, and
// memory a burst of uploads took is not given back to the system afterwards.
const decoding = pLimit(1);

/** Uploads being turned into files in this process, and those waiting their turn. */
export function coverDecodingLoad(): { active: number; waiting: number } {
  return { active: decoding.activeCount, waiting: decoding.pendingCount };
}

/**
 * Refuses anything but a JPEG, PNG or WebP of sane size (422); otherwise writes every width into
 * the store, and resolves only once all are there. A write the store refuses is CoverNotStored.
 */
export async function storeCover(bytes: Buffer, store: CoverStore): Promise<StoredCover> {
  return decoding(async () => {
    const original = await inspect(bytes);
    const name = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
    const widths = widthsFor(original.width);
    let largest = { width: 0, height: 0 };
    for (const width of widths) {
      const { data, info } = await (
        await decode(bytes)
      )
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer({ resolveWithObject: true })
        .catch(() => {
          // libvips could not decode the whole file (cut short, or corrupt past its header):
          // the operator is asked for another file (422); nothing of this upload is kept.
          throw new HttpError(422, COVER_MESSAGES.unreadable);
        });
      await store.put(coverFileName(name, width), data).catch((err: unknown) => {
        throw new CoverNotStored(
          name,
          widths.map((w) => coverFileName(name, w)),
          err,
        );
      });
      largest = { width: info.width, height: info.height };
    }
    return { name, ...largest, widths };
  });
}

type SharpFactory = (input: Buffer, options?: SharpOptions) => Sharp;
let sharpModule: Promise<SharpFactory> | undefined;

// Loaded with the first upload: image processing (libvips) is large, and an idle process should not
// carry it (bench/results.md has the idle memory of the last run).
function loadSharp(): Promise<SharpFactory> {
  sharpModule ??= import('sharp').then(({ default: sharp }) => configureSharp(sharp));
  return sharpModule;
}

/**
 * Set once, as image processing loads. Its cache would keep decoded images after the answer,
 * and a thread per core each grows its own memory pool that stays with the process; covers
 * are rare enough that one thread, uncached, is quick enough.
 */
function configureSharp(sharp: typeof import('sharp').default): SharpFactory {
  sharp.cache(false);
  sharp.concurrency(1);
  return sharp;
}

async function inspect(bytes: Buffer): Promise<{ width: number; height: number }> {
  const sharp = await loadSharp();
  // Bytes libvips reads no image format from (a text file, a PDF) have no metadata: refused
  // below as the wrong type (422).
  const meta = await sharp(bytes)
    .metadata()
    .catch(() => undefined);
  if (meta?.format === 'svg') throw new HttpError(422, COVER_MESSAGES.svg);
  if (!meta?.format || !ACCEPTED.has(meta.format) || !meta.width || !meta.height) throw new HttpError(422, COVER_MESSAGES.wrongType);
  if (meta.width * meta.height > MAX_PIXELS) throw new HttpError(422, COVER_MESSAGES.tooManyPixels);
  // EXIF orientations 5-8 turn the picture on its side.
  const sideways = (meta.orientation ?? 1) >= 5;
  return sideways ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
}

// Upright (EXIF orientation applied); sharp drops the rest of the metadata, a camera's GPS included.
async function decode(bytes: Buffer) {
  return (await loadSharp())(bytes, { limitInputPixels: MAX_PIXELS }).rotate();
}
