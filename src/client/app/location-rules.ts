import partner from '../../../schemas/partner.json';
import { hasSessionCookie } from '../lib/session-cookie.ts';
import { isServiceUser } from '../session/client-snapshot.ts';

/**
 * The location validator of spec section 2 for the routes the catch-all does not see
 * (spec-decisions 12): a service user belongs on the form pages, and /completion belongs
 * to a logged-in applicant. Everyone else goes to the default route with the query kept,
 * before the page renders (a PDF button there would only meet a 401). A rule answers the
 * path to go to instead, or null to stay.
 */
export type LocationRule = (location: { search: string }) => string | null;

const toDefault = (search: string) => `${partner.default_route}${search}`;

/** Account pages: a service user has no account here. */
export const accountPagesRule: LocationRule = ({ search }) => (isServiceUser(search) ? toDefault(search) : null);

/** /completion: only for a logged-in applicant (a submitted status is checked once the profile is in). */
export const completionRule: LocationRule = ({ search }) => (isServiceUser(search) || !hasSessionCookie() ? toDefault(search) : null);
