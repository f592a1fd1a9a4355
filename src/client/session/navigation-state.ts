/** What pages hand each other through router navigation state. */
export interface NavigationState {
  successMessage?: string;
  errorMessage?: string;
  /** the e-mail address typed on one account page, offered on the next */
  username?: string;
  /** the ticket of the e-mail the last account call queued: the next page says if it is delayed */
  mail?: string;
  /** answers an anonymous visitor carries to sign-up */
  answers?: Record<string, string>;
  /** the id of the element the next page starts with, instead of its main heading */
  focusTarget?: string;
}

export function readNavigationState(state: unknown): NavigationState {
  return state && typeof state === 'object' ? (state as NavigationState) : {};
}
