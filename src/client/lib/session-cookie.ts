/**
 * The session cookie is HttpOnly; the server sets a readable `logged_in=1` beside it so the
 * client knows whether to ask for the profile. A 401 stays the final word.
 */

/**
 * The page's cookies as one task reads them. Each read of document.cookie asks the browser
 * for them afresh, and taking a form page over read them over a dozen times; a cookie the
 * server sets arrives with a response, in a task of its own, so one read a task sees it.
 */
let cookiesThisTask: string | null = null;

function pageCookies(): string {
  if (cookiesThisTask === null) {
    cookiesThisTask = document.cookie;
    queueMicrotask(() => (cookiesThisTask = null));
  }
  return cookiesThisTask;
}

export function hasSessionCookie(): boolean {
  return pageCookies().split(';').some((part) => part.trim() === 'logged_in=1');
}

export function forgetSessionCookie(): void {
  document.cookie = 'logged_in=; Max-Age=0; path=/; SameSite=Lax';
  cookiesThisTask = null;
}
