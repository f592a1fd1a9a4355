import confirm from '../../../schemas/auth/confirm.json';
import forgot from '../../../schemas/auth/forgot.json';
import login from '../../../schemas/auth/login.json';
import reset from '../../../schemas/auth/reset.json';
import signup from '../../../schemas/auth/signup.json';
import frame from '../../../schemas/text/frame.json';
import { partner } from '../lib/partner-text.ts';

const titles: Record<string, string> = {
  ...Object.fromEntries(frame.steps.map((step) => [step.path, step.label])),
  '/completion': frame.completion.title,
  '/signup': signup.title,
  '/confirm': confirm.title,
  '/login': login.title,
  '/forgot': forgot.title,
  '/reset': reset.title,
};

/** The document title of a route: the page's name, then the partner's. */
export function documentTitle(pathname: string): string {
  const page = titles[pathname];
  return page ? `${page} | ${partner.name}` : partner.name;
}
