import type { SWRConfiguration } from 'swr';

/**
 * The spec's data-fetching defaults (section 7): no retry, cached data kept and never
 * stale, no refetch on focus, reconnect or mount. Errors go to the error boundary. Every
 * hook passes its own typed fetcher (the features' api/ modules), so there is no global one.
 */
export const swrConfig: SWRConfiguration = {
  shouldRetryOnError: false,
  errorRetryCount: 0,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  revalidateIfStale: false,
  dedupingInterval: 0,
  focusThrottleInterval: 0,
  keepPreviousData: true,
};
