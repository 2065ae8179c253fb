import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DiskStore } from './cover-store.ts';

/** The covers folder of the uploads directory: the files behind COVERS_URL when no bucket is set. */
export function coversDir(uploadsDir: string): string {
  return path.join(uploadsDir, 'covers');
}

/** Covers on this server's disk, in `dir` (UPLOADS_DIR/covers): the shop's behaviour without a bucket. */
export function diskStore(dir: string): DiskStore {
  return {
    kind: 'disk',
    dir,
    async put(file, data) {
      await mkdir(dir, { recursive: true });
      await writeAtomically(path.join(dir, file), data);
    },
    has: (file) => Promise.resolve(existsSync(path.join(dir, file))),
    async remove(files) {
      await Promise.all(files.map((file) => rm(path.join(dir, file), { force: true })));
    },
    async ping() {},
  };
}

// Another process may be writing the same file (the same upload twice): each renames a whole file into place.
async function writeAtomically(file: string, data: Buffer): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, file);
}
