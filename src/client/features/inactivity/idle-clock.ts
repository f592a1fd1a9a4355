/**
 * The last moment of activity, shared by every tab of the application through
 * localStorage, so working in one tab keeps the others signed in.
 */
const STORAGE_KEY = 'app:last-activity';

export function readLastActivity(): number {
  const stored = Number(localStorage.getItem(STORAGE_KEY));
  return Number.isFinite(stored) && stored > 0 ? stored : Date.now();
}

export function writeLastActivity(at: number): void {
  localStorage.setItem(STORAGE_KEY, String(at));
}

export function onLastActivityChange(listener: (at: number) => void): () => void {
  const handler = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY && event.newValue) listener(Number(event.newValue));
  };
  window.addEventListener('storage', handler);
  return () => window.removeEventListener('storage', handler);
}
