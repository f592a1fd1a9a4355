import { redirect } from 'react-router-dom';
import partner from '../../../schemas/partner.json';
import { hasSessionCookie } from '../lib/session-cookie.ts';
import { isServiceUser } from '../session/client-snapshot.ts';

/**
 * The location validator of spec section 2 for the routes the catch-all does not see
 * (spec-decisions 12): a service user belongs on the form pages, and /completion belongs
 * to a logged-in applicant. Everyone else goes to the default route with the query kept,
 * before the page renders (a PDF button there would only meet a 401).
 */
function toDefault(request: Request): Response {
  return redirect(`${partner.default_route}${new URL(request.url).search}`);
}

/** Account pages: a service user has no account here. */
export function accountPagesRule({ request }: { request: Request }): Response | null {
  return isServiceUser(new URL(request.url).search) ? toDefault(request) : null;
}

/** /completion: only for a logged-in applicant (a submitted status is checked once the profile is in). */
export function completionRule({ request }: { request: Request }): Response | null {
  return isServiceUser(new URL(request.url).search) || !hasSessionCookie() ? toDefault(request) : null;
}
