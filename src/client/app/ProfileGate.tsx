import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from '../lib/routing.tsx';
import { loadProfile } from '../session/profile.ts';
import { UnauthorizedError } from '../lib/api-errors.ts';
import { serviceTokenOf } from '../session/service-token.ts';
import { PageLoading } from './PageLoading.tsx';
import { StaffLinkEnded } from './StaffLinkEnded.tsx';

type Load = ReturnType<typeof loadProfile>;

interface Loaded {
  serviceToken: string | null;
  error?: unknown;
}

/** The read begun with the page itself (startFirstProfileLoad), taken by the first gate that mounts for it. */
let firstLoad: { serviceToken: string | null; load: Load; settled?: Loaded } | null = null;

/**
 * Starts the profile read as the page's script runs, before React's first render, when the
 * page opens on a form page: the gate then waits for a read already under way.
 */
export function startFirstProfileLoad(): Load {
  const serviceToken = serviceTokenOf(window.location.search);
  const load = loadProfile();
  const started: NonNullable<typeof firstLoad> = { serviceToken, load };
  // remembered as settled, so a gate that mounts after it draws its page at once; the gate reports a failure
  load.then(() => (started.settled = { serviceToken }), (error: unknown) => (started.settled = { serviceToken, error: error ?? new Error('Profile load failed') }));
  firstLoad = started;
  return load;
}

/** The first read's outcome, when it has settled for this service token. */
const settledFirstLoad = (serviceToken: string | null) => (firstLoad?.serviceToken === serviceToken ? firstLoad.settled ?? null : null);

function takeLoad(serviceToken: string | null): Load {
  const started = firstLoad;
  firstLoad = null;
  return started && started.serviceToken === serviceToken ? started.load : loadProfile();
}

/**
 * The form frame renders once the profile (or a service user's view) is in, so no page
 * draws an empty form first; each entry into the frame, and each new service link, reads
 * it again. A failed read goes to the route's error boundary; a refused staff link says it has ended.
 */
export function ProfileGate({ children }: { children: ReactNode }) {
  const serviceToken = serviceTokenOf(useLocation().search);
  const [loaded, setLoaded] = useState<Loaded | null>(() => settledFirstLoad(serviceToken));
  useEffect(() => {
    const settled = settledFirstLoad(serviceToken);
    if (settled) {
      firstLoad = null;
      setLoaded(settled);
      return;
    }
    let current = true;
    takeLoad(serviceToken).then(
      () => current && setLoaded({ serviceToken }),
      (error: unknown) => current && setLoaded({ serviceToken, error: error ?? new Error('Profile load failed') }),
    );
    return () => {
      current = false;
    };
  }, [serviceToken]);
  // a staff link the server refuses has ended: said as such, not as a crash
  if (loaded?.error instanceof UnauthorizedError && loaded.serviceToken) return <StaffLinkEnded />;
  if (loaded?.error) throw loaded.error;
  if (!loaded || loaded.serviceToken !== serviceToken) return <PageLoading />;
  return children;
}
