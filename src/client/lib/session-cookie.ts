/**
 * The session cookie is HttpOnly; the server sets a readable `logged_in=1` beside it so the
 * client knows whether to ask for the profile. A 401 stays the final word.
 */
export function hasSessionCookie(): boolean {
  return document.cookie.split(';').some((part) => part.trim() === 'logged_in=1');
}

export function forgetSessionCookie(): void {
  document.cookie = 'logged_in=; Max-Age=0; path=/; SameSite=Lax';
}
