import { useSyncExternalStore } from 'react';

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

const IDLE: DocumentState = { phase: 'idle' };
let states: Record<string, DocumentState> = {};
const listeners = new Set<() => void>();

export const documentsStore = {
  get: (key: string): DocumentState => states[key] ?? IDLE,
  set(key: string, state: DocumentState): void {
    states = { ...states, [key]: state };
    listeners.forEach((listener) => listener());
  },
  /** Loaded from the profile or the service view: what was converted before. */
  load(documentAnswer: Record<string, { file_name: string; file_size: number }>): void {
    states = Object.fromEntries(Object.entries(documentAnswer).map(([key, file]) => [key, { phase: 'done', fileName: file.file_name, fileSize: file.file_size }]));
    listeners.forEach((listener) => listener());
  },
  isBusy: (keys: readonly string[]): boolean => keys.some((key) => ['uploading', 'converting'].includes(documentsStore.get(key).phase)),
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useDocumentState(key: string): DocumentState {
  return useSyncExternalStore(documentsStore.subscribe, () => documentsStore.get(key));
}
