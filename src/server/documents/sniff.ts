import { fileTypeFromBuffer } from 'file-type';
import yauzl from 'yauzl';

/** The document kinds we convert, as their bytes say, not as their names claim. */
export type DocumentKind = 'png' | 'jpeg' | 'pdf' | 'docx';

const declaredKinds: Record<string, DocumentKind> = { png: 'png', jpg: 'jpeg', jpeg: 'jpeg', pdf: 'pdf', docx: 'docx' };

export function declaredKind(fileName: string): DocumentKind | undefined {
  return declaredKinds[fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase()];
}

/**
 * What the bytes are: file-type's magic numbers, and for a zip, the parts a Word file must
 * have. Like checkDocx, it reads (and file-type inflates) the upload: both run in the
 * untrusted file worker process (untrusted-file-tasks.ts), never on the server's event loop.
 */
export async function sniffKind(bytes: Uint8Array): Promise<DocumentKind | 'other'> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected?.ext === 'png') return 'png';
  if (detected?.ext === 'jpg') return 'jpeg';
  if (detected?.ext === 'pdf') return 'pdf';
  if (detected?.ext === 'docx' || detected?.ext === 'zip') return (await zipEntries(bytes)).includes('word/document.xml') ? 'docx' : 'other';
  return 'other';
}

export interface ZipLimits {
  maxEntries: number;
  maxInflatedBytes: number;
}

export type ZipProblem = 'too_many_entries' | 'too_large' | 'unsafe_path' | 'corrupt';

/** Names of a zip's entries (central directory only: nothing is inflated). */
export function zipEntries(bytes: Uint8Array): Promise<string[]> {
  return new Promise((resolve) => {
    yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) return resolve([]);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', () => resolve(names));
      zip.readEntry();
    });
  });
}

/**
 * A Word file checked as a zip before LibreOffice sees it: entry count, the bytes its
 * entries really inflate to (declared sizes lie in a zip bomb), no paths out. Macros are
 * found by what the parts say (docx-embedded.ts), not here by a part's name.
 */
export function checkDocx(bytes: Uint8Array, limits: ZipLimits): Promise<ZipProblem | undefined> {
  return new Promise((resolve) => {
    yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) return resolve('corrupt');
      let entries = 0;
      let inflated = 0;
      let settled = false;
      const finish = (problem: ZipProblem | undefined) => {
        if (settled) return;
        settled = true;
        zip.close();
        resolve(problem);
      };
      zip.on('entry', (entry: yauzl.Entry) => {
        entries++;
        if (entries > limits.maxEntries) return finish('too_many_entries');
        if (entry.fileName.startsWith('/') || entry.fileName.split(/[\\/]/).includes('..')) return finish('unsafe_path');
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return finish('corrupt');
          stream.on('data', (chunk: Buffer) => {
            inflated += chunk.length;
            if (inflated > limits.maxInflatedBytes) {
              stream.destroy();
              finish('too_large');
            }
          });
          stream.on('error', () => finish('corrupt'));
          stream.on('end', () => zip.readEntry());
        });
      });
      zip.on('end', () => finish(undefined));
      zip.on('error', () => finish('corrupt'));
      zip.readEntry();
    });
  });
}
