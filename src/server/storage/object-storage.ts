/**
 * Where uploaded files and made PDFs live: one interface, local disk by default
 * (DATA_DIR/objects) or S3 when S3_BUCKET is set. Uploads go straight from the browser to
 * storage with a presigned POST (as S3 does it), never through an API handler's memory.
 */
export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
}

export interface StoredObject {
  key: string;
  size: number;
  lastModified: Date;
}

export interface ObjectStorage {
  /** A POST the browser may make once: exactly this key, at most maxBytes, before it expires. */
  presignPost(key: string, options: { maxBytes: number; expiresInSeconds: number }): Promise<PresignedPost>;
  get(key: string): Promise<Buffer>;
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  size(key: string): Promise<number | undefined>;
  delete(key: string): Promise<void>;
  /**
   * Moves an object to another key, as it is at this moment: what is written to `from`
   * afterwards is not carried along. False when there is nothing at `from`.
   */
  move(from: string, to: string): Promise<boolean>;
  /** Every object whose key starts with prefix (a folder: ends with '/'), in no particular order. */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** An origin the browser uploads to, for the Content-Security-Policy (none: our own). */
  uploadOrigin?: string;
}
