import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * When the HTTP request that the current work serves arrived (performance.now()). Set around
 * each request's handling (src/server/plugins/request-order.ts); work a request starts (a
 * job it pokes) carries it too, which only moves that work up the embedded database's queue.
 */
export const requestArrival = new AsyncLocalStorage<number>();
