import { mutate } from 'swr';
import type { WebStatus } from '../../../shared/lifecycle/web-status.ts';
import { PROFILE_KEY, type Profile } from '../../session/api/session-api.ts';
import { postWebStatus, saveLastPage as putLastPage } from './api/lifecycle-api.ts';

const STATUS_RETRIES = 2; // spec section 9

async function withRetries<T>(call: () => Promise<T>, retries: number): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= retries) throw error;
      await new Promise((resolve) => setTimeout(resolve, 300 * (attempt + 1)));
    }
  }
}

/** POST /api/web-status (retried 2 times), and the same entry in the cached profile. */
export async function postStatus(status: Exclude<WebStatus, null>): Promise<void> {
  await withRetries(() => postWebStatus(status), STATUS_RETRIES);
  await addLocalStatus(status);
}

export async function addLocalStatus(status: Exclude<WebStatus, null>): Promise<void> {
  await mutate<Profile>(PROFILE_KEY, (profile) => profile && !profile.web_status.some((entry) => entry.web_status === status)
    ? { ...profile, web_status: [...profile.web_status, { web_status: status, created_at: new Date().toISOString() }] }
    : profile, { revalidate: false });
}

export async function saveLastPage(path: string): Promise<void> {
  await putLastPage(path);
  await mutate<Profile>(PROFILE_KEY, (profile) => profile && { ...profile, last_page: path }, { revalidate: false });
}
