import { useEffect, useRef, useState } from 'react';
import { onLastActivityChange, readLastActivity, writeLastActivity } from './idle-clock.ts';

/** ended: the timeout passed and the logout is under way (the warning must not stay open over the login page) */
export type IdlePhase = 'active' | 'prompted' | 'ended';

interface Options {
  enabled: boolean;
  timeoutMs: number;
  /** the warning shows this long before the timeout */
  promptBeforeMs: number;
  onIdle(): void;
  /** called on activity, at most once per `activityPingMs` */
  onActivity(): void;
  activityPingMs: number;
  /** the warning dialog, while shown: pointing inside it and the keys that work its buttons are not activity */
  ignoreWithin?: () => Element | null;
}

// focus is left out: opening the warning moves focus, which is not the applicant's doing
const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;
const CHECK_EVERY_MS = 1000;
/**
 * Keys that move between or press the warning's buttons: answering it, not activity that
 * dismisses it. Shift goes down first in Shift+Tab, and alone would close the warning under
 * the keyboard user's focus.
 */
const DIALOG_KEYS = new Set(['Tab', 'Shift', 'Enter', ' ']);

/**
 * Whether an event answers the warning rather than being activity: a key that works its
 * buttons, or pointing inside it (moving to "log me out" must not dismiss it first). A mouse
 * moved over the page around it or any other key returns to active (spec section 4).
 */
function answersWarning(event: Event, dialog: Element): boolean {
  if (event instanceof KeyboardEvent) return DIALOG_KEYS.has(event.key);
  return event.target instanceof Node && dialog.contains(event.target);
}

/**
 * Spec section 4 "Inactivity": active, a prompt before the timeout, then idle. The clock
 * is compared with wall time (not a single timer), so a laptop that slept past the
 * timeout logs out on its first activity: the 15-minute rule.
 */
export function useInactivity(options: Options): { phase: IdlePhase; remainingMs: number; stay(): void } {
  const { enabled, timeoutMs, promptBeforeMs } = options;
  const [phase, setPhase] = useState<IdlePhase>('active');
  const [remainingMs, setRemainingMs] = useState(timeoutMs);
  const latest = useRef(options);
  latest.current = options;
  const lastPing = useRef(0);
  const lastActivity = useRef(Date.now());

  useEffect(() => {
    if (!enabled) {
      setPhase('active');
      return;
    }
    let finished = false;
    lastActivity.current = Date.now();
    writeLastActivity(lastActivity.current);

    const idle = () => {
      if (finished) return;
      finished = true;
      setPhase('ended');
      latest.current.onIdle();
    };

    const check = () => {
      const remaining = lastActivity.current + timeoutMs - Date.now();
      setRemainingMs(Math.max(0, remaining));
      if (remaining <= 0) idle();
      else setPhase(remaining <= promptBeforeMs ? 'prompted' : 'active');
    };

    const markActive = (at: number) => {
      if (finished) return;
      lastActivity.current = at;
      setPhase('active');
      if (at - lastPing.current >= latest.current.activityPingMs) {
        lastPing.current = at;
        latest.current.onActivity();
      }
    };

    const onEvent = (event: Event) => {
      const dialog = latest.current.ignoreWithin?.();
      if (dialog && answersWarning(event, dialog)) return;
      const now = Date.now();
      // activity after the timeout (a sleeping laptop): 15 minutes or more since the last activity logs out
      if (now - Math.max(lastActivity.current, readLastActivity()) >= timeoutMs) {
        idle();
        return;
      }
      if (now - lastActivity.current < 500) return; // mousemove fires often
      writeLastActivity(now);
      markActive(now);
    };

    const unsubscribe = onLastActivityChange((at) => {
      if (at > lastActivity.current) markActive(at);
    });
    ACTIVITY_EVENTS.forEach((name) => window.addEventListener(name, onEvent, { capture: true, passive: true }));
    const interval = window.setInterval(check, CHECK_EVERY_MS);
    return () => {
      finished = true;
      unsubscribe();
      ACTIVITY_EVENTS.forEach((name) => window.removeEventListener(name, onEvent, { capture: true }));
      window.clearInterval(interval);
    };
  }, [enabled, timeoutMs, promptBeforeMs]);

  const stay = () => {
    if (phase === 'ended') return; // too late: the session is over
    const now = Date.now();
    lastActivity.current = now;
    writeLastActivity(now);
    lastPing.current = now;
    setPhase('active');
    latest.current.onActivity();
  };

  return { phase, remainingMs, stay };
}
