import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { pacedRequests } from '../../src/server/lib/paced-requests.ts';

/** Requests are handed on at most `perTurn` a turn of the event loop, in arrival order; the health check never waits. */
const request = (url: string) => ({ url, method: 'GET', socket: { destroyed: false } }) as unknown as IncomingMessage;
const response = {} as ServerResponse;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function pacedRecorder(perTurn: number) {
  const handed: string[] = [];
  const pacing = pacedRequests({ perTurn, immediate: (item) => item.url === '/healthz' });
  const handle = pacing.listenerFor((item) => handed.push(item.url!));
  return { handed, paced: { handle, waiting: pacing.waiting } };
}

describe('paced requests', () => {
  it('hands on at most perTurn requests a turn, the rest in later turns, in arrival order', async () => {
    const { handed, paced } = pacedRecorder(32);
    for (let index = 0; index < 100; index++) paced.handle(request(`/r${index}`), response);
    expect(handed).toHaveLength(32);
    expect(paced.waiting()).toBe(68);
    await nextTurn();
    expect(handed).toHaveLength(64);
    await nextTurn();
    await nextTurn();
    expect(handed).toEqual(Array.from({ length: 100 }, (_, index) => `/r${index}`));
    expect(paced.waiting()).toBe(0);
  });

  it('hands on the health check at once, however many wait', () => {
    const { handed, paced } = pacedRecorder(4);
    for (let index = 0; index < 10; index++) paced.handle(request(`/r${index}`), response);
    paced.handle(request('/healthz'), response);
    expect(handed).toEqual(['/r0', '/r1', '/r2', '/r3', '/healthz']);
    expect(paced.waiting()).toBe(6);
  });

  it('keeps a later arrival behind those already waiting, even when the turn has room', async () => {
    const { handed, paced } = pacedRecorder(2);
    for (let index = 0; index < 3; index++) paced.handle(request(`/r${index}`), response);
    await nextTurn(); // r2 handed; one place of this turn is left
    paced.handle(request('/r3'), response);
    expect(handed).toEqual(['/r0', '/r1', '/r2', '/r3']);
    for (let index = 4; index < 8; index++) paced.handle(request(`/r${index}`), response);
    expect(handed).toHaveLength(4); // the turn's two places are taken
    await nextTurn();
    await nextTurn();
    expect(handed).toEqual(['/r0', '/r1', '/r2', '/r3', '/r4', '/r5', '/r6', '/r7']);
  });

  it('drops a request whose client left while it waited', async () => {
    const { handed, paced } = pacedRecorder(1);
    const left = request('/left');
    paced.handle(request('/first'), response);
    paced.handle(left, response);
    paced.handle(request('/stayed'), response);
    (left.socket as { destroyed: boolean }).destroyed = true;
    await nextTurn();
    await nextTurn();
    expect(handed).toEqual(['/first', '/stayed']);
  });
});
