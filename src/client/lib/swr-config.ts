import type { SWRConfiguration } from 'swr';
import { apiRequest } from './api-client.ts';

/**
 * The spec's data-fetching defaults (section 7): no retry, cached data kept and never
 * stale, no refetch on focus, reconnect or mount. Errors go to the error boundary.
 */
export const swrConfig: SWRConfiguration = {
  fetcher: (uri: string) => apiRequest(uri),
  shouldRetryOnError: false,
  errorRetryCount: 0,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  revalidateIfStale: false,
  dedupingInterval: 0,
  focusThrottleInterval: 0,
  keepPreviousData: true,
};
