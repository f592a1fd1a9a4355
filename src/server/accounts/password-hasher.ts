import { hash, verify } from '@node-rs/argon2';
import { clientNetwork } from '../lib/client-network.ts';
import { fairQueue, QueueFull } from '../lib/fair-queue.ts';
import { tooManyRequests } from '../lib/too-many-requests.ts';

/**
 * argon2id (the library's default algorithm) with OWASP ASVS parameters (m = 19 MiB, t = 2, p = 1). Each hash holds its
 * memory while it runs, so at most four run at once; the client addresses waiting take turns,
 * so a flood of logins or sign-ups from one address (or one IPv6 /64) slows that address,
 * not everyone's login. A school's shared address still gets a queue of its own.
 */
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
const HASHES_AT_ONCE = 4;
const WAITING_PER_ADDRESS = 32;
/** what the server itself hashes, with no client behind it */
export const SERVER_ITSELF = 'server';
const queue = fairQueue({ concurrency: HASHES_AT_ONCE, maxWaitingPerKey: WAITING_PER_ADDRESS });
let dummyHash: Promise<string> | undefined;

async function inTurn<T>(from: string, work: () => Promise<T>): Promise<T> {
  try {
    return await queue.run(from === SERVER_ITSELF ? from : clientNetwork(from), work);
  } catch (error) {
    if (error instanceof QueueFull) throw tooManyRequests(1000);
    throw error;
  }
}

/** `from`: the client address the work is done for, whose turn it waits for. */
export function hashPassword(password: string, from: string): Promise<string> {
  return inTurn(from, () => hash(password, options));
}

export function verifyPassword(passwordHash: string, password: string, from: string): Promise<boolean> {
  return inTurn(from, () => verify(passwordHash, password).catch(() => false));
}

/** Spends the time of a real verification, so an unknown account answers as slowly as a known one. */
export async function verifyAgainstDummy(password: string, from: string): Promise<false> {
  dummyHash ??= hash('not-a-real-password-but-the-same-cost', options);
  await verifyPassword(await dummyHash, password, from);
  return false;
}

/** The queue itself: what it holds now (load), and a way for a test to hold its places (run). */
export const hashingQueue = queue;
export { HASHES_AT_ONCE };
