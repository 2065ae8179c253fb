import 'dotenv/config';
import { loadConfig } from '../config.ts';
import { bucketStore } from '../features/covers/bucket-store.ts';
import { copyCoversToBucket, describeCopy } from '../features/covers/copy-to-bucket.ts';
import { coversDir } from '../features/covers/disk-store.ts';
import { bucketOptions } from '../features/covers/store-choice.ts';

// `npm run covers:upload` copies the covers uploaded to this server's disk (UPLOADS_DIR/covers)
// into the bucket S3_BUCKET names, skipping those already there, and says what it did. Run it
// once on each server that kept covers on its disk, before or after setting S3_BUCKET for the shop.
const config = loadConfig();
if (!config.S3_BUCKET) {
  fail(
    "S3_BUCKET is not set, so there is no bucket to copy covers to. Set S3_BUCKET (and S3_ENDPOINT for a store other than AWS, with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) in the shop's configuration, then run this again.",
  );
}
const bucket = bucketStore(bucketOptions(config, config.S3_BUCKET));
try {
  await bucket.ping();
} catch (err) {
  fail(
    `The bucket ${config.S3_BUCKET} could not be reached, so no cover was copied. Check S3_BUCKET, S3_ENDPOINT and the AWS_ credentials. The storage answered: ${answerOf(err)}`,
  );
}
try {
  console.log(describeCopy(await copyCoversToBucket(coversDir(config.uploadsDir), bucket)));
} catch (err) {
  fail(`Copying stopped part-way; running this again copies the rest. The storage answered: ${answerOf(err)}`);
}

function answerOf(err: unknown): string {
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  return [e.name, status && `HTTP ${status}`, e.message && e.message !== 'UnknownError' ? e.message : undefined].filter(Boolean).join(', ');
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
