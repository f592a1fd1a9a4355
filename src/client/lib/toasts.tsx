import { OverlayToaster } from '@blueprintjs/core';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import errors from '../../../schemas/text/errors.json';

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

export function ToastProvider({ children }: { children: ReactNode }) {
  const toaster = useRef<OverlayToaster | null>(null);

  const show = useCallback<ShowToast>(({ severity, message, title, key }) => {
    const heading = title ?? (severity === 'error' ? errors.toast.error_title : undefined);
    toaster.current?.show(
      {
        intent: severity === 'error' ? 'danger' : 'success',
        icon: severity === 'error' ? 'error' : 'tick-circle',
        className: `app-toast app-toast-${severity}`,
        timeout: TOAST_DURATION_MS[severity],
        message: (
          <span className="app-toast-body">
            {heading && <strong className="app-toast-title">{heading}</strong>}
            <span>{message}</span>
          </span>
        ),
      },
      key,
    );
  }, []);

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
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <section aria-label={errors.toast.region_label.replace('{hotkey}', TOAST_HOTKEY)}>
        <OverlayToaster ref={toaster} className="app-toaster" position="top" maxToasts={4} usePortal={false} canEscapeKeyClear />
      </section>
    </ToastContext.Provider>
  );
}
