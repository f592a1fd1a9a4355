import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import type { S3Config } from '../config.ts';
import type { ObjectStorage } from './object-storage.ts';

/** The keys we make (uploads/<id>/<question>/<uuid>, documents/..., converted/..., pdfs/...): nothing else is read or written. */
function checkKey(key: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9/_.-]*$/.test(key) || key.includes('..') || key.includes('//')) throw new Error(`refused object key ${key}`);
  return key;
}

function client(config: S3Config): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.credentials ? { credentials: config.credentials } : {}),
  });
}

/**
 * The address the browser POSTs uploads to, as the SDK resolves it (virtual-hosted or path
 * style, AWS or S3_ENDPOINT), without credentials or network: the Content-Security-Policy
 * needs its origin before storage starts.
 */
export function s3BucketUrl(config: S3Config, s3 = client(config)): URL {
  const { url } = s3.config.endpointProvider({
    Bucket: config.bucket, Region: config.region, ForcePathStyle: config.forcePathStyle,
    UseFIPS: false, UseDualStack: false, Accelerate: false,
    ...(config.endpoint ? { Endpoint: config.endpoint } : {}),
  });
  return url;
}

export function s3UploadOrigin(config: S3Config): string {
  return s3BucketUrl(config).origin;
}

const notFound = (error: unknown) =>
  error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey');

/**
 * Objects in an S3 bucket (or an S3-compatible server). Uploads are S3's own presigned
 * POST: exactly one key, a content-length-range of 1..maxBytes, an expiry; S3 enforces all
 * three (s3rver, used in the tests, does not enforce the size: registration checks it again).
 */
export function createS3Storage(config: S3Config): ObjectStorage {
  const s3 = client(config);
  const Bucket = config.bucket;

  async function size(key: string): Promise<number | undefined> {
    try {
      const head = await s3.send(new HeadObjectCommand({ Bucket, Key: checkKey(key) }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
  }

  return {
    uploadOrigin: s3BucketUrl(config, s3).origin,
    async presignPost(key, { maxBytes, expiresInSeconds }) {
      const { url, fields } = await createPresignedPost(s3, {
        Bucket,
        Key: checkKey(key),
        Conditions: [['content-length-range', 1, maxBytes]],
        Expires: expiresInSeconds,
      });
      return { url, fields };
    },
    async get(key) {
      const answer = await s3.send(new GetObjectCommand({ Bucket, Key: checkKey(key) }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    },
    async put(key, data, contentType) {
      await s3.send(new PutObjectCommand({ Bucket, Key: checkKey(key), Body: data, ContentType: contentType }));
    },
    exists: async (key) => (await size(key)) !== undefined,
    size,
    async move(from, to) {
      // S3 has no rename: a copy is a snapshot of the source as it is now, then the source goes
      try {
        await s3.send(new CopyObjectCommand({ Bucket, Key: checkKey(to), CopySource: `${Bucket}/${encodeURIComponent(checkKey(from)).replaceAll('%2F', '/')}` }));
      } catch (error) {
        if (notFound(error)) return false;
        throw error;
      }
      await s3.send(new DeleteObjectCommand({ Bucket, Key: from }));
      return true;
    },
    async delete(key) {
      await s3.send(new DeleteObjectCommand({ Bucket, Key: checkKey(key) }));
    },
    async *list(prefix) {
      let ContinuationToken: string | undefined;
      do {
        const page = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: checkKey(prefix), ...(ContinuationToken ? { ContinuationToken } : {}) }));
        for (const item of page.Contents ?? []) {
          if (item.Key) yield { key: item.Key, size: item.Size ?? 0, lastModified: item.LastModified ?? new Date() };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
}
