import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { COVER_CACHE_CONTROL, COVER_CONTENT_TYPE, type BucketStore } from './cover-store.ts';

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

type Sdk = typeof import('@aws-sdk/client-s3');

/**
 * Covers in an S3-compatible bucket every server shares. A store named by its endpoint rarely
 * cares about the region, so us-east-1 stands in when none is set; AWS itself needs the right one.
 * The SDK is loaded with the first request: a shop keeping covers on disk never carries it.
 */
export function bucketStore({ bucket, endpoint, region, credentials }: BucketOptions): BucketStore {
  let connecting: Promise<{ sdk: Sdk; client: S3Client }> | undefined;
  const connect = () =>
    (connecting ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        ...(endpoint ? { endpoint, forcePathStyle: true, region: region ?? 'us-east-1' } : region ? { region } : {}),
        ...(credentials ? { credentials } : {}),
        // One retry: an upload is waited on by the operator, /readyz by a balancer with its own deadline.
        maxAttempts: 2,
        // A bucket that does not answer must fail the upload, not hold it (and a socket) open.
        requestHandler: { connectionTimeout: 2_000, requestTimeout: 15_000 },
      }),
    })));

  return {
    kind: 'bucket',
    bucket,
    async put(file, data) {
      const { sdk, client } = await connect();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: bucket,
          Key: coverKey(file),
          Body: data,
          ContentType: COVER_CONTENT_TYPE,
          CacheControl: COVER_CACHE_CONTROL,
        }),
      );
    },
    async has(file) {
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: coverKey(file) }));
        return true;
      } catch (err) {
        if (isMissing(err)) return false;
        throw err;
      }
    },
    async read(file) {
      const { sdk, client } = await connect();
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: coverKey(file) }));
        return { body: answer.Body as Readable, length: answer.ContentLength };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async remove(files) {
      if (!files.length) return;
      const { sdk, client } = await connect();
      const answer = await client.send(
        new sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: files.map((file) => ({ Key: coverKey(file) })), Quiet: true } }),
      );
      const failed = answer.Errors ?? [];
      if (failed.length) throw new Error(`The bucket kept ${failed.map((e) => `${e.Key} (${e.Code ?? e.Message})`).join(', ')}`);
    },
    async ping() {
      const { sdk, client } = await connect();
      await client.send(new sdk.HeadBucketCommand({ Bucket: bucket }));
    },
  };
}

/** The bucket's answer for a key (or bucket) it does not have: NoSuchKey, or a bare 404 to a HEAD. */
function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}
