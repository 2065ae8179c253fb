import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { COVER_MESSAGES, coverDecodingLoad, storeCover } from '../../../../src/features/admin/books/cover-images.ts';
import { HttpError } from '../../../../src/web/errors.ts';
import { diskStore } from '../../../../src/features/covers/disk-store.ts';

// What one cover upload may cost a server process: a pixel count that still fits a print
// cover, and one decode at a time however many operators upload at once.

const newDir = () => mkdtempSync(path.join(tmpdir(), 'shop-covers-'));
// One colour: even a print-sized PNG is a few kilobytes, so these stay quick to make.
const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 40 } } })
    .png()
    .toBuffer();

describe('cover image size', () => {
  it('refuses an image over 25 megapixels with the message the form shows (422), writing nothing', async () => {
    const dir = newDir();
    const refused = await storeCover(await png(5001, 5000), diskStore(dir)).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(HttpError);
    expect([(refused as HttpError).status, (refused as HttpError).message]).toEqual([422, COVER_MESSAGES.tooManyPixels]);
    expect(COVER_MESSAGES.tooManyPixels).toBe('The image is too large: at most 25 megapixels.');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('takes an image of exactly 25 megapixels', async () => {
    const stored = await storeCover(await png(5000, 5000), diskStore(newDir()));
    expect([stored.width, stored.height]).toEqual([960, 960]);
  }, 30_000);
});

describe('several uploads at once', () => {
  it('decodes one at a time, the others waiting their turn', async () => {
    const [first, second] = await Promise.all([png(1200, 1800), png(1200, 1800).then((b) => sharp(b).flop().png().toBuffer())]);
    const seen: { active: number; waiting: number }[] = [];
    const sampler = setInterval(() => seen.push(coverDecodingLoad()), 1);
    const dir = newDir();
    await Promise.all([storeCover(first, diskStore(dir)), storeCover(second, diskStore(dir))]);
    clearInterval(sampler);
    expect(Math.max(...seen.map((s) => s.active))).toBe(1);
    expect(seen).toContainEqual({ active: 1, waiting: 1 });
    expect(coverDecodingLoad()).toEqual({ active: 0, waiting: 0 });
  });
});
