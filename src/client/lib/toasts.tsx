import { OverlayToaster } from '@blueprintjs/core';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import errors from '../../../schemas/text/errors.json';
import { focusHeading } from './focus-heading.ts';

export type ToastSeverity = 'success' | 'error';

export interface ToastOptions {
  severity: ToastSeverity;
  message: string;
  /** Defaults to 'Error' for errors; a card's failure uses '{card} Error'. */
  title?: string;
  /** Toasts with the same key replace each other instead of stacking. */
  key?: string;
}

/** Spec section 9: default 5000 ms, errors stay 300000 ms. F8 moves focus to the newest toast. */
export const TOAST_DURATION_MS: Record<ToastSeverity, number> = { success: 5000, error: 300_000 };
export const TOAST_HOTKEY = 'F8';

type ShowToast = (options: ToastOptions) => void;
const ToastContext = createContext<ShowToast>(() => {});

export function useToast(): ShowToast {
  return useContext(ToastContext);
}

/** Whether two boxes share any area. */
function overlaps(a: DOMRect, b: DOMRect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * The toasts of the whole app (spec section 9), with what WCAG asks of them: a toast never
 * covers the focused element (the stack moves to the other edge, 2.4.11); closing one gives
 * the focus back to where it was before F8 or Tab took it there (2.4.3); a success (a
 * login, a saved step) clears the error toasts of earlier attempts, which no longer apply;
 * each toast is a group named by its title ("Log In Error", "Success"), with a close button
 * that says what it closes; and each is heard once, title and message in one utterance.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const toaster = useRef<OverlayToaster | null>(null);
  const region = useRef<HTMLElement | null>(null);
  const [position, setPosition] = useState<'top' | 'bottom'>('top');
  // what a screen reader hears of the newest toast, said once by a region that is always there
  const [spoken, setSpoken] = useState<{ severity: ToastSeverity; text: string }>({ severity: 'success', text: '' });
  /** where the focus was before it went into the toasts */
  const origin = useRef<HTMLElement | null>(null);

  const giveFocusBack = useCallback(() => {
    const active = document.activeElement;
    if (!active || !region.current?.contains(active)) return;
    const back = origin.current?.isConnected ? origin.current : document.querySelector<HTMLElement>('main h1');
    if (back?.tagName === 'H1' || back?.tagName === 'H2') focusHeading(back, { preventScroll: false });
    else back?.focus({ preventScroll: false });
  }, []);

  /** Moves the stack to the other edge when a toast covers the focused element. */
  const uncover = useCallback(() => {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || active === document.body || region.current?.contains(active)) return;
    const target = active.getBoundingClientRect();
    const toasts = [...(region.current?.querySelectorAll<HTMLElement>('.bp6-toast') ?? [])];
    if (toasts.some((toast) => overlaps(toast.getBoundingClientRect(), target))) setPosition((edge) => (edge === 'top' ? 'bottom' : 'top'));
  }, []);

  const show = useCallback<ShowToast>(({ severity, message, title, key }) => {
    const heading = title ?? (severity === 'error' ? errors.toast.error_title : undefined);
    const words = heading ? `${heading}: ${message}` : message;
    // the same words again (a second refusal) are changed by an unseen space, so they are heard again
    setSpoken((before) => ({ severity, text: before.text === words ? `${words}\u00a0` : words }));
    if (severity === 'success') {
      for (const stale of toaster.current?.getToasts() ?? []) {
        if (stale.intent === 'danger' && stale.key) toaster.current?.dismiss(stale.key);
      }
    }
    toaster.current?.show(
      {
        intent: severity === 'error' ? 'danger' : 'success',
        icon: severity === 'error' ? 'error' : 'tick-circle',
        className: `app-toast app-toast-${severity}`,
        timeout: TOAST_DURATION_MS[severity],
        onDismiss: giveFocusBack,
        message: (
          <span className="app-toast-body" data-toast-title={heading ?? errors.toast.success_title}>
            {heading && <strong className="app-toast-title">{heading}</strong>}
            <span>{message}</span>
          </span>
        ),
      },
      key,
    );
  }, [giveFocusBack]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== TOAST_HOTKEY) return;
      const toasts = document.querySelectorAll<HTMLElement>('.app-toaster .bp6-toast');
      const newest = toasts[toasts.length - 1];
      if (newest) {
        event.preventDefault();
        newest.focus();
      }
    };
    const onFocusIn = (event: FocusEvent) => {
      const inside = region.current?.contains(event.target as Node);
      const from = event.relatedTarget as HTMLElement | null;
      if (inside && !(from && region.current?.contains(from))) origin.current = from;
      if (!inside) uncover();
    };
    // Blueprint's toast has no name of its own (its close button's "Close" was heard): a group named by its title
    const observer = new MutationObserver(() => {
      // Blueprint makes the toaster a polite live region and each toast's message an alert, filled
      // in two steps: Orca heard a toast's title, then title and message, then the older toasts
      // again. A toast is heard once, from the regions below, and Blueprint's are made quiet.
      region.current?.querySelectorAll('.app-toaster[aria-live], .app-toaster [aria-live]').forEach((live) => live.removeAttribute('aria-live'));
      region.current?.querySelectorAll('.app-toaster [role="alert"]').forEach((alert) => alert.removeAttribute('role'));
      region.current?.querySelectorAll<HTMLElement>('.bp6-toast:not([role])').forEach((toast) => {
        const body = toast.querySelector<HTMLElement>('.app-toast-body');
        if (!body) return;
        toast.setAttribute('role', 'group');
        toast.setAttribute('aria-label', body.dataset.toastTitle ?? '');
        toast.querySelector('.bp6-button-group .bp6-button')?.setAttribute('aria-label', errors.toast.close);
      });
    });
    if (region.current) observer.observe(region.current, { childList: true, subtree: true });
    // a new toast settles (its entry transition ends) where the focused element may be
    region.current?.addEventListener('transitionend', uncover);
    const element = region.current;
    window.addEventListener('keydown', onKeyDown);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('focusin', onFocusIn);
      element?.removeEventListener('transitionend', uncover);
      observer.disconnect();
    };
  }, [uncover]);

  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <section aria-label={errors.toast.region_label.replace('{hotkey}', TOAST_HOTKEY)} ref={region}>
        <OverlayToaster ref={toaster} className="app-toaster" position={position} maxToasts={4} usePortal={false} canEscapeKeyClear />
      </section>
      <div className="visually-hidden" role="alert">{spoken.severity === 'error' ? spoken.text : ''}</div>
      <div className="visually-hidden" role="status">{spoken.severity === 'success' ? spoken.text : ''}</div>
    </ToastContext.Provider>
  );
}
