import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { BucketStore } from './cover-store.ts';

/** A cover's bytes never change under its name (the name is the upload's hash): browsers and CDNs keep it a year. */
export const COVER_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const COVER_CONTENT_TYPE = 'image/webp';

/** Where a cover file sits in the bucket: covers/<hash>-<width>.webp. */
export function coverKey(file: string): string {
  return `covers/${file}`;
}

export interface BucketOptions {
  bucket: string;
  /** Any S3-compatible store (MinIO, R2, Spaces...): addressed by path, bucket after the host. Unset: AWS. */
  endpoint?: string | undefined;
  region?: string | undefined;
  /** Unset: the SDK finds them itself (its environment variables, a shared profile, an instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/**
 * Covers in an S3-compatible bucket every server shares. A store named by its endpoint rarely
 * cares about the region, so us-east-1 stands in when none is set; AWS itself needs the right one.
 */
export function bucketStore({ bucket, endpoint, region, credentials }: BucketOptions): BucketStore {
  const client = new S3Client({
    ...(endpoint ? { endpoint, forcePathStyle: true, region: region ?? 'us-east-1' } : region ? { region } : {}),
    ...(credentials ? { credentials } : {}),
    // One retry: an upload is waited on by the operator, /readyz by a balancer with its own deadline.
    maxAttempts: 2,
    // A bucket that does not answer must fail the upload, not hold it (and a process's socket) open.
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 15_000 },
  });

  return {
    kind: 'bucket',
    bucket,
    async put(file, data) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: coverKey(file),
          Body: data,
          ContentType: COVER_CONTENT_TYPE,
          CacheControl: COVER_CACHE_CONTROL,
        }),
      );
    },
    async has(file) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: coverKey(file) }));
        return true;
      } catch (err) {
        if (isMissing(err)) return false;
        throw err;
      }
    },
    async read(file) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: coverKey(file) }));
        return { body: answer.Body as Readable, length: answer.ContentLength };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async remove(files) {
      if (!files.length) return;
      const answer = await client.send(
        new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: files.map((file) => ({ Key: coverKey(file) })), Quiet: true } }),
      );
      const failed = answer.Errors ?? [];
      if (failed.length) throw new Error(`The bucket kept ${failed.map((e) => `${e.Key} (${e.Code ?? e.Message})`).join(', ')}`);
    },
    async ping() {
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
    },
  };
}

function isMissing(err: unknown): boolean {
  return err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);
}
