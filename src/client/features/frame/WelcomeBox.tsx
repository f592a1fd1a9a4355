import { Icon } from '@blueprintjs/core';
import { Link } from '../../lib/routing.tsx';
import frame from '../../../../schemas/text/frame.json';
import { partner, partnerText } from '../../lib/partner-text.ts';
import { keepAnonymousAnswers } from '../../session/carried-answers.ts';
import { useClientSnapshot, type ClientSnapshot } from '../../session/client-snapshot.ts';
import { useApplicationSession } from '../../session/session-hooks.ts';

const text = frame.welcome;

export type WelcomeState = 'anonymous' | 'first_login' | 'returning' | 'submitted';

export function welcomeState(snapshot: ClientSnapshot): WelcomeState {
  if (!snapshot.is_logged_in) return 'anonymous';
  if (snapshot.web_status === 'submitted') return 'submitted';
  return snapshot.num_logins <= 1 ? 'first_login' : 'returning';
}

/** Shown when submitted, or not logged in, or before the first page change; never for service users. */
export function isWelcomeVisible(snapshot: ClientSnapshot): boolean {
  if (snapshot.is_service_user) return false;
  return snapshot.web_status === 'submitted' || !snapshot.is_logged_in || !snapshot.has_changed_page;
}

function titleWithName(title: string, titleWithoutName: string, name: string): string {
  return name ? partnerText(title, { name }) : titleWithoutName;
}

export function WelcomeBox() {
  const snapshot = useClientSnapshot();
  const { answers } = useApplicationSession();
  if (!isWelcomeVisible(snapshot)) return null;
  const state = welcomeState(snapshot);
  const name = snapshot.first_name;

  let title: string;
  let body: React.ReactNode;
  switch (state) {
    case 'anonymous':
      title = text.anonymous.title;
      body = (
        <p>
          {text.anonymous.body}{' '}
          <Link to="/login" onClick={() => keepAnonymousAnswers(answers.get())} state={{ answers: answers.get() }}>{frame.account_popover.sign_in}</Link>
        </p>
      );
      break;
    case 'first_login':
      title = text.first_login.title;
      body = (
        <>
          <p>{partnerText(text.first_login.body)}</p>
          <ul className="advantages">
            {text.advantages.map((item) => (
              <li key={item}><Icon icon="tick-circle" intent="success" aria-hidden /> {item}</li>
            ))}
          </ul>
        </>
      );
      break;
    case 'returning':
      title = titleWithName(text.returning.title, text.returning.title_without_name, name);
      body = <p>{text.returning.body}</p>;
      break;
    case 'submitted':
      title = titleWithName(text.submitted.title, text.submitted.title_without_name, name);
      body = (
        <>
          <p>{text.submitted.body}</p>
          {/* a submitted applicant is always on /completion, whose page lists the file's items below its h1 */}
          <ol className="next-steps">
            {text.submitted.steps.map((step) => <li key={step}>{partnerText(step, { sat_code: partner.test_codes.sat_code, act_code: partner.test_codes.act_code, clt_code: partner.test_codes.clt_code })}</li>)}
          </ol>
        </>
      );
      break;
  }
  // a named region whose title is not a heading: it comes before the page's h1, which must be the first heading
  return (
    <section className={`welcome-box welcome-${state}`} aria-labelledby="welcome-title" data-welcome-state={state}>
      <p id="welcome-title" className="welcome-title">{title}</p>
      {body}
    </section>
  );
}
