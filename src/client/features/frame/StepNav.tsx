import { NavLink } from '../../lib/routing.tsx';
import frame from '../../../../schemas/text/frame.json';
import stepNumbers from '../../../shared/generated/step-numbers.json';
import { SpokenSpace } from '../../lib/spoken-space.tsx';

/**
 * The three-step navigation. A click is handed to `onNavigate` (save, validate, then move
 * on); the links still work without script help. `search`: a query every link keeps (a
 * staff link's token, so staff move between the applicant's pages without it).
 */
export function StepNav({ onNavigate, leadsToSignup = false, search = '' }: { onNavigate?: (path: string) => void; leadsToSignup?: boolean; search?: string }) {
  return (
    <nav className="step-nav" aria-label={frame.steps_label}>
      {leadsToSignup && <span className="visually-hidden" id="step-signup-note">{frame.steps_signup_note}</span>}
      <ol>
        {frame.steps.map((step) => (
          <li key={step.path}>
            <NavLink
              to={{ pathname: step.path, search }}
              replace
              onClick={(event) => {
                if (!onNavigate || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                event.preventDefault();
                onNavigate(step.path);
              }}
              className={({ isActive }) => `step-link${isActive ? ' step-link-current' : ''}`}
              aria-current="step"
              aria-describedby={leadsToSignup ? 'step-signup-note' : undefined}
            >
              <span className="step-link-inner">
                {/* part of the name: what is seen is what speech control users say ("1 About You", WCAG 2.5.3) */}
                <span className="step-number">{stepNumbers[step.path as keyof typeof stepNumbers]}</span>
                <SpokenSpace />
                <span className="step-label">{step.label}</span>
              </span>
            </NavLink>
          </li>
        ))}
      </ol>
    </nav>
  );
}
