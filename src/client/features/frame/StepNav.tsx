import { NavLink } from 'react-router-dom';
import frame from '../../../../schemas/text/frame.json';

/** The three-step navigation. Hidden for service users by the frame. */
export function StepNav() {
  return (
    <nav className="step-nav" aria-label={frame.steps_label}>
      <ol>
        {frame.steps.map((step) => (
          <li key={step.path}>
            <NavLink
              to={step.path}
              replace
              className={({ isActive }) => `step-link${isActive ? ' step-link-current' : ''}`}
              aria-current={undefined}
            >
              {({ isActive }) => (
                <span aria-current={isActive ? 'step' : undefined} className="step-link-inner">
                  <span className="step-number" aria-hidden="true">{step.number}</span>
                  <span className="step-label">{step.label}</span>
                </span>
              )}
            </NavLink>
          </li>
        ))}
      </ol>
    </nav>
  );
}
