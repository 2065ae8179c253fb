import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import type { BucketStore } from './cover-store.ts';

// Moving a shop from one server's disk to a bucket: every stored cover file in the uploads
// folder is copied under the same name, and one already in the bucket is left alone, so the
// copy can be run again (after an interrupted run, or on each server in turn) without harm.

const COVER_FILE = /^[0-9a-f]{32}-\d{1,4}\.webp$/;

export interface CopyReport {
  uploaded: number;
  alreadyThere: number;
}

/** Copies `dir`'s cover files (not half-written ones) into the bucket, a few at a time. */
export async function copyCoversToBucket(dir: string, bucket: Pick<BucketStore, 'has' | 'put'>): Promise<CopyReport> {
  const names = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    // No covers folder: nothing was ever uploaded on this server.
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  const files = names.filter((name) => COVER_FILE.test(name)).sort();
  const report: CopyReport = { uploaded: 0, alreadyThere: 0 };
  const limit = pLimit(4);
  await Promise.all(
    files.map((file) =>
      limit(async () => {
        if (await bucket.has(file)) report.alreadyThere++;
        else {
          await bucket.put(file, await readFile(path.join(dir, file)));
          report.uploaded++;
        }
      }),
    ),
  );
  return report;
}

export function describeCopy({ uploaded, alreadyThere }: CopyReport): string {
  const covers = (n: number) => `${n} ${n === 1 ? 'cover' : 'covers'}`;
  return `Uploaded ${covers(uploaded)}, ${alreadyThere} already in the bucket.`;
}
