import type { Config } from '../../config.ts';
import { bucketStore } from './bucket-store.ts';
import type { CoverStore } from './cover-store.ts';
import { coversDir, diskStore } from './disk-store.ts';

type StoreConfig = Pick<Config, 'S3_BUCKET' | 'S3_ENDPOINT' | 'uploadsDir'>;

/** The bucket when S3_BUCKET is set, otherwise UPLOADS_DIR/covers. */
export function coverStoreFor(config: StoreConfig): CoverStore {
  return config.S3_BUCKET
    ? bucketStore({ bucket: config.S3_BUCKET, endpoint: config.S3_ENDPOINT })
    : diskStore(coversDir(config.uploadsDir));
}
