import { createStore } from './store.ts';

/**
 * The state of each document question while the pages are open (spec "Document upload
 * and conversion"): idle, uploading, converting, or done with the file's name and size.
 * Shared so that tab switching can refuse while a conversion runs.
 */
export type DocumentPhase = 'idle' | 'uploading' | 'converting' | 'done';

export interface DocumentState {
  phase: DocumentPhase;
  fileName?: string;
  fileSize?: number;
  error?: string;
}

interface StoredFile {
  file_name: string;
  file_size: number;
}

const IDLE: DocumentState = { phase: 'idle' };

export type DocumentsStore = ReturnType<typeof createDocumentsStore>;

/** What was converted before (`done`), and what the server is still converting. */
export function createDocumentsStore(done: Record<string, StoredFile>, converting: Record<string, StoredFile> = {}) {
  const fromFiles = (files: Record<string, StoredFile>, phase: DocumentPhase) =>
    Object.fromEntries(Object.entries(files).map(([key, file]) => [key, { phase, fileName: file.file_name, fileSize: file.file_size }]));
  const states = createStore<Record<string, DocumentState>>({ ...fromFiles(done, 'done'), ...fromFiles(converting, 'converting') });
  // conversions this tab polls, so that two starts of the session never follow one twice
  const followed = new Set<string>();
  const get = (key: string): DocumentState => states.get()[key] ?? IDLE;
  return {
    get,
    set: (key: string, state: DocumentState) => states.set({ ...states.get(), [key]: state }),
    isBusy: (keys: readonly string[]): boolean => keys.some((key) => ['uploading', 'converting'].includes(get(key).phase)),
    subscribe: states.subscribe,
    /** true when nobody in this tab follows the conversion yet: the caller now does */
    follow: (key: string): boolean => !followed.has(key) && Boolean(followed.add(key)),
    unfollow: (key: string) => void followed.delete(key),
  };
}
