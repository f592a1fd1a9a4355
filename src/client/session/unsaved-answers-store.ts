import type { AnswerValue } from '../../shared/answers/conditions.ts';

/**
 * Where a page keeps the answers the server has not acknowledged, so that they outlive the
 * tab (closed offline, killed by the phone, a crash): localStorage, one record per open page,
 * filed under the account's tag and encrypted with the account's key (AES-GCM), both given
 * only to the applicant's session by the profile (`save_queue`). After a logout the next
 * person at the computer finds ciphertext under a name that says nothing; the applicant's
 * next page, in any tab, decrypts it and sends it. A page holds a Web Lock named after its
 * record while it lives: another page takes a record over only once its lock is free (the
 * page is gone), so two open pages never send one record at once; where a browser has no
 * Web Locks, two may, and the save's clocks and writer make the repeat change nothing.
 * ADR 015 has the design.
 */
export interface UnsavedEntry {
  value: AnswerValue;
  /** when it was changed (the save's _clock) */
  clock: number;
  /** the stored change the page showed when it was changed (the save's _seen; 0: shown empty) */
  seen: number;
}

export type UnsavedEntries = Record<string, UnsavedEntry>;

/** A record left by a page that is gone: sent as that page (its writer), removed once acknowledged. */
export interface Leftover {
  writer: string;
  entries: UnsavedEntries;
  /** removes the record (its answers were acknowledged) */
  remove(): void;
  /** lets another page take it again (this page goes before it was acknowledged) */
  release(): void;
}

export interface UnsavedStoreOptions {
  storage: Storage;
  /** the account's key (base64url, 256 bits) and the name its records are filed under */
  key: string;
  tag: string;
  /** this page's id (the save's _writer) */
  writer: string;
  locks?: LockManager;
  crypto?: SubtleCrypto;
  now?: () => number;
}

const PREFIX = 'app:unsaved:';
/** a record nobody came back for in this long is dropped: its answers are no longer anyone's latest */
const KEEP_MS = 30 * 24 * 60 * 60 * 1000;
const recordName = (tag: string, writer: string) => `${PREFIX}${tag}:${writer}`;
const lockName = (writer: string) => `app-unsaved-page:${writer}`;

const fromBase64 = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

interface StoredRecord { iv: string; data: string; at: number }

/** Whether this browser keeps any page's unsaved answers (of any account): they are the account's, read after its profile. */
export function hasUnsavedRecords(storage: Storage): boolean {
  for (let index = 0; index < storage.length; index++) if (storage.key(index)?.startsWith(PREFIX)) return true;
  return false;
}

/** A page id: random, never twice the same. */
export function newWriterId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export type UnsavedStore = Awaited<ReturnType<typeof openUnsavedStore>>;

export async function openUnsavedStore({ storage, key, tag, writer, locks, crypto: subtle = crypto.subtle, now = Date.now }: UnsavedStoreOptions) {
  const cryptoKey = await subtle.importKey('raw', fromBase64(key), 'AES-GCM', false, ['encrypt', 'decrypt']);
  const own = recordName(tag, writer);

  // held while this page lives: the browser lets it go when the page goes, however it goes
  let releaseOwnLock: (() => void) | undefined;
  if (locks) {
    await new Promise<void>((held) => {
      void locks.request(lockName(writer), () => new Promise<void>((release) => {
        releaseOwnLock = release;
        held();
      }));
    });
  }

  async function encrypt(entries: UnsavedEntries): Promise<StoredRecord> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv }, cryptoKey, new TextEncoder().encode(JSON.stringify(entries))));
    return { iv: toBase64(iv), data: toBase64(data), at: now() };
  }

  async function decrypt(text: string): Promise<UnsavedEntries | null> {
    try {
      const record = JSON.parse(text) as StoredRecord;
      const plain = await subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(record.iv) }, cryptoKey, fromBase64(record.data));
      return JSON.parse(new TextDecoder().decode(plain)) as UnsavedEntries;
    } catch {
      return null; // not ours to read (another key), or damaged
    }
  }

  /** Frees a record's page lock if its page is gone; null while that page still lives. */
  function claim(otherWriter: string): Promise<(() => void) | null> {
    if (!locks) return Promise.resolve(() => {});
    return new Promise((resolve) => {
      void locks.request(lockName(otherWriter), { ifAvailable: true }, (lock) => {
        if (!lock) {
          resolve(null);
          return undefined;
        }
        return new Promise<void>((release) => resolve(release));
      });
    });
  }

  // writes in the order they were asked for, each with the entries as they then were
  let writing: Promise<void> = Promise.resolve();

  return {
    writer,

    /** Keeps this page's unacknowledged answers (none: the record goes). */
    keep(entries: UnsavedEntries): Promise<void> {
      const snapshot = JSON.parse(JSON.stringify(entries)) as UnsavedEntries;
      writing = writing.then(async () => {
        if (!Object.keys(snapshot).length) {
          storage.removeItem(own);
          return;
        }
        const record = await encrypt(snapshot);
        try {
          storage.setItem(own, JSON.stringify(record));
        } catch {
          // storage full or refused (a private window): the page still saves, and asks before it is closed
        }
      });
      return writing;
    },

    /** The records of this account's pages that are gone, taken by this page until removed or released. */
    async leftovers(): Promise<Leftover[]> {
      const found: Leftover[] = [];
      const names: string[] = [];
      for (let index = 0; index < storage.length; index++) names.push(storage.key(index) ?? '');
      for (const name of names) {
        if (!name.startsWith(PREFIX)) continue;
        const text = storage.getItem(name);
        const record = (() => {
          try {
            return JSON.parse(text ?? '') as StoredRecord;
          } catch {
            return null;
          }
        })();
        if (!record || now() - record.at > KEEP_MS) {
          storage.removeItem(name); // damaged, or nobody's latest any more
          continue;
        }
        const [recordTag, otherWriter] = name.slice(PREFIX.length).split(':');
        if (recordTag !== tag || !otherWriter || otherWriter === writer) continue;
        const release = await claim(otherWriter);
        if (!release) continue; // its page is still open: it sends its own
        const entries = storage.getItem(name) === null ? null : await decrypt(storage.getItem(name)!);
        if (!entries || !Object.keys(entries).length) {
          if (entries) storage.removeItem(name);
          release();
          continue;
        }
        found.push({ writer: otherWriter, entries, remove: () => { storage.removeItem(name); release(); }, release });
      }
      return found;
    },

    /** This page goes: its lock is let go (its record stays for the next page if it holds anything). */
    close(): void {
      releaseOwnLock?.();
    },
  };
}
