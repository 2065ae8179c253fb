import type { Config } from '../../config.ts';
import { bucketStore, type BucketOptions } from './bucket-store.ts';
import type { CoverStore } from './cover-store.ts';
import { coversDir, diskStore } from './disk-store.ts';

type BucketConfig = Pick<Config, 'S3_BUCKET' | 'S3_ENDPOINT' | 'AWS_REGION' | 'AWS_ACCESS_KEY_ID' | 'AWS_SECRET_ACCESS_KEY'>;

/** The bucket when S3_BUCKET is set, otherwise UPLOADS_DIR/covers. */
export function coverStoreFor(config: BucketConfig & Pick<Config, 'uploadsDir'>): CoverStore {
  return config.S3_BUCKET ? bucketStore(bucketOptions(config, config.S3_BUCKET)) : diskStore(coversDir(config.uploadsDir));
}

/**
 * In production without a bucket, covers are on this machine's disk only: said once at start-up,
 * as the pre-launch checklist says it, so whoever adds a second server reads it in the log too.
 */
export function coversOnOneDiskWarning(config: Pick<Config, 'isProduction' | 'S3_BUCKET'>): string | undefined {
  if (!config.isProduction || config.S3_BUCKET) return undefined;
  return "S3_BUCKET is unset in production: covers are kept on this server's disk (UPLOADS_DIR), and a second server behind the same address would answer 404 for every cover uploaded here. Set S3_BUCKET (and S3_ENDPOINT for a store other than AWS) before running more than one server, then run npm run covers:upload.";
}

/** The bucket's settings as the SDK takes them. */
export function bucketOptions(config: BucketConfig, bucket: string): BucketOptions {
  return {
    bucket,
    endpoint: config.S3_ENDPOINT,
    region: config.AWS_REGION,
    credentials:
      config.AWS_ACCESS_KEY_ID && config.AWS_SECRET_ACCESS_KEY
        ? { accessKeyId: config.AWS_ACCESS_KEY_ID, secretAccessKey: config.AWS_SECRET_ACCESS_KEY }
        : undefined,
  };
}
