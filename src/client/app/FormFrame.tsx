import type { ReactNode } from 'react';
import frame from '../../../schemas/text/frame.json';
import { BannerArea } from '../features/frame/BannerArea.tsx';
import { Footer } from '../features/frame/Footer.tsx';
import { Header } from '../features/frame/Header.tsx';
import { StepNav } from '../features/frame/StepNav.tsx';
import { WelcomeBox } from '../features/frame/WelcomeBox.tsx';
import { useApplicationNavigation } from '../features/lifecycle/use-application-navigation.ts';
import { useApplicationStatus } from '../features/lifecycle/use-application-status.ts';
import { useClientSnapshot } from '../session/client-snapshot.ts';
import { hasAnswers } from '../session/carried-answers.ts';
import { useAnswersSelector } from '../session/session-hooks.ts';
import { ApplicationSessionScope } from './ApplicationSessionScope.tsx';
import { focusHeading } from '../lib/focus-heading.ts';
import { useLocation } from '../lib/routing.tsx';

/** The page frame of spec section 1 around the three application steps, with the application session of whoever they show. */
export function FormFrame({ children }: { children: ReactNode }) {
  return (
    <ApplicationSessionScope>
      <FrameLayout>{children}</FrameLayout>
    </ApplicationSessionScope>
  );
}

/** The skip link lands on the page's heading at the top of the content, not wherever the browser scrolls #main to. */
function skipToHeading(event: React.MouseEvent<HTMLAnchorElement>) {
  const heading = document.getElementById('page-title');
  if (!heading) return;
  event.preventDefault();
  focusHeading(heading);
  heading.scrollIntoView({ block: 'start' });
}

function FrameLayout({ children }: { children: ReactNode }) {
  const { is_service_user: service, is_logged_in: loggedIn } = useClientSnapshot();
  const { search } = useLocation();
  // an anonymous visitor with answers is taken to Sign Up by a step link: the links say so
  const leadsToSignup = useAnswersSelector(null, (answers) => !loggedIn && hasAnswers(answers));
  useApplicationStatus();
  const navigation = useApplicationNavigation();
  return (
    <div className={`app-shell${service ? ' service-view' : ''}`}>
      {/* the service view is a printable rendering: no header, footer, banners or buttons (spec "PDF / service view") */}
      {!service && <a className="skip-link" href="#main" onClick={skipToHeading}>{frame.skip_link}</a>}
      {!service && <BannerArea />}
      {!service && <Header />}
      {!service && <StepNav onNavigate={(path) => void navigation.followLink(path)} leadsToSignup={leadsToSignup} />}
      {/* staff move between the applicant's three pages; the printed copy leaves the links out (app.css) */}
      {service && <StepNav search={search} />}
      <main id="main" className="app-main" tabIndex={-1}>
        <WelcomeBox />
        {children}
      </main>
      {!service && <Footer />}
    </div>
  );
}
