import a11y from '../../../schemas/text/accessibility.json';

/**
 * Where the focus goes when a Blueprint dialog or popover opens. Blueprint starts it on an
 * empty trap element and makes the overlay's content box a tab stop with no name; a screen
 * reader hears nothing useful there. Given as `onOpening`, this takes the box out of the tab
 * order (it stays focusable by script) and focuses something meaningful inside:
 * - 'dialog': the dialog itself, so its title and text are read from the start;
 * - 'first': its first control (a popover's first action);
 * - a CSS selector: that element (the safe button of a confirmation).
 * Blueprint's trap then cycles Tab and Shift+Tab through the real controls only.
 */
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex="0"]';

export function focusOnOpen(target: 'dialog' | 'first' | string = 'dialog'): (node: HTMLElement) => void {
  return (node) => {
    node.setAttribute('tabindex', '-1');
    // Blueprint names a dialog's × "Close" in English, whatever the page's language
    node.querySelectorAll('.bp6-dialog-close-button').forEach((button) => button.setAttribute('aria-label', a11y.close_dialog));
    // Blueprint makes every overlay a polite live region: a dialog would be read twice (as it
    // opens and as the focus enters it), and a countdown in it at every tick
    node.closest('.bp6-overlay[aria-live]')?.removeAttribute('aria-live');
    // two frames: after Blueprint's own first focus (its trap is armed only once that ran)
    requestAnimationFrame(() => requestAnimationFrame(() => {
      if (!node.isConnected) return;
      let element: HTMLElement | null;
      if (target === 'dialog') {
        element = node.matches('[role="dialog"], [role="alertdialog"]') ? node : node.querySelector<HTMLElement>('[role="dialog"], [role="alertdialog"]');
        element?.setAttribute('tabindex', '-1');
      } else {
        element = node.querySelector<HTMLElement>(target === 'first' ? FOCUSABLE : target);
      }
      (element ?? node).focus({ preventScroll: true });
    }));
  };
}
