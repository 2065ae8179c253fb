// npx tsx scripts/bench/covers.ts: what cover uploads near the pixel limit leave in a server
// process. Ten uploads of a 24.9-megapixel PNG (a few hundred kilobytes: one colour compresses
// well, yet decodes to the full image), sent four at once as a busy operator might, through the
// shop's own storeCover. Prints resident memory before, at its peak, just after and after ten
// seconds at rest, and writes them to bench/results-covers.md.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { storeCover } from '../../src/features/admin/books/cover-images.ts';
import { diskStore } from '../../src/features/covers/disk-store.ts';

const UPLOADS = 10;
const AT_ONCE = 4;
const SIDE = 4990;
const REST_MS = 10_000;
const OUTPUT = path.join('bench', 'results-covers.md');

const rssMb = () => process.memoryUsage().rss / 2 ** 20;

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-covers-bench-'));
  // Each upload a different image, as each would be a different book.
  const images = await Promise.all(
    Array.from({ length: UPLOADS }, (_, i) =>
      sharp({ create: { width: SIDE, height: SIDE, channels: 3, background: { r: 20 * i, g: 90, b: 160 } } })
        .png()
        .toBuffer(),
    ),
  );
  const before = rssMb();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 20);
  try {
    for (let i = 0; i < UPLOADS; i += AT_ONCE)
      await Promise.all(images.slice(i, i + AT_ONCE).map((image) => storeCover(image, diskStore(dir))));
  } finally {
    clearInterval(sampler);
  }
  const after = rssMb();
  await new Promise((resolve) => setTimeout(resolve, REST_MS));
  const rested = rssMb();
  rmSync(dir, { recursive: true, force: true });
  const sizeKb = Math.round(images.reduce((sum, image) => sum + image.length, 0) / UPLOADS / 1024);
  const report = [
    '# Cover uploads near the pixel limit',
    '',
    `${new Date().toISOString()} · Node ${process.version} · \`npx tsx scripts/bench/covers.ts\``,
    '',
    `${UPLOADS} uploads of a ${SIDE}x${SIDE} PNG (${sizeKb} KB each), ${AT_ONCE} at once, through storeCover in one process.`,
    '',
    '| resident memory | MB |',
    '|---|---|',
    `| before the uploads (images in memory) | ${before.toFixed(0)} |`,
    `| peak during the uploads | ${peak.toFixed(0)} |`,
    `| just after the last | ${after.toFixed(0)} |`,
    `| after ${REST_MS / 1000} s at rest | ${rested.toFixed(0)} |`,
    '',
  ].join('\n');
  process.stdout.write(report);
  writeFileSync(OUTPUT, report);
}

await main();
