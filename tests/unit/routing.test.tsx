// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BrowserRouter, Link, Navigate, NavLink, StaticRouter, useLocation, useNavigate, useSearchParams, type NavigateFunction,
} from '../../src/client/lib/routing.tsx';

let navigate: NavigateFunction;

/** Shows where the app is, and hands the test its navigate function. */
function Where() {
  const location = useLocation();
  navigate = useNavigate();
  const [params] = useSearchParams();
  return <output data-testid="where" data-key={location.key} data-state={JSON.stringify(location.state)} data-id={params.get('id') ?? ''}>{`${location.pathname}${location.search}${location.hash}`}</output>;
}

const where = () => screen.getByTestId('where');

beforeEach(() => window.history.replaceState(null, '', '/about'));
afterEach(cleanup);

describe('routing over the browser history', () => {
  it('starts where the browser is, and moves with a state that the entry keeps', () => {
    render(<BrowserRouter><Where /></BrowserRouter>);
    expect(where().textContent).toBe('/about');
    expect(where().dataset.key).toBe('default');
    const entries = window.history.length;
    act(() => navigate('/login', { state: { successMessage: 'Saved' } }));
    expect(where().textContent).toBe('/login');
    expect(JSON.parse(where().dataset.state!)).toEqual({ successMessage: 'Saved' });
    expect(where().dataset.key).not.toBe('default');
    expect(window.history.length).toBe(entries + 1);
    // kept as React Router kept it: a reload shows the same state
    expect(window.history.state).toMatchObject({ usr: { successMessage: 'Saved' } });
    act(() => navigate({ pathname: '/reset', search: '?id=7' }, { replace: true }));
    expect(where().textContent).toBe('/reset?id=7');
    expect(where().dataset.id).toBe('7');
    expect(window.history.length).toBe(entries + 1);
    // an object without a path keeps the path
    act(() => navigate({ search: '?id=8' }));
    expect(where().textContent).toBe('/reset?id=8');
  });

  it('follows the back button and a fragment the browser moved to', () => {
    render(<BrowserRouter><Where /></BrowserRouter>);
    act(() => navigate('/education-ug'));
    act(() => {
      window.history.replaceState(null, '', '/about#city');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(where().textContent).toBe('/about#city');
    expect(where().dataset.key).toBe('default');
    expect(where().dataset.state).toBe('null');
  });

  it('follows a plain click on a link in the page, and leaves a click that opens a new tab to the browser', () => {
    render(<BrowserRouter><Where /><Link to="/forgot" state={{ username: 'ann' }}>Forgot</Link></BrowserRouter>);
    const link = screen.getByRole('link', { name: 'Forgot' });
    expect(link.getAttribute('href')).toBe('/forgot');
    expect(fireEvent.click(link, { ctrlKey: true })).toBe(true);
    expect(where().textContent).toBe('/about');
    expect(fireEvent.click(link)).toBe(false);
    expect(where().textContent).toBe('/forgot');
    expect(JSON.parse(where().dataset.state!)).toEqual({ username: 'ann' });
    // a link to the page shown replaces its entry
    const entries = window.history.length;
    fireEvent.click(link);
    expect(window.history.length).toBe(entries);
  });

  it('marks the link to the page shown, whatever the case of its address', () => {
    window.history.replaceState(null, '', '/Education-UG');
    const className = ({ isActive }: { isActive: boolean }) => (isActive ? 'current' : 'other');
    render(
      <BrowserRouter>
        <NavLink to={{ pathname: '/education-ug', search: '?token=t' }} aria-current="step" className={className}>Education</NavLink>
        <NavLink to="/about" className={className}>About</NavLink>
      </BrowserRouter>,
    );
    const education = screen.getByRole('link', { name: 'Education' });
    expect(education.className).toBe('current');
    expect(education.getAttribute('aria-current')).toBe('step');
    expect(education.getAttribute('href')).toBe('/education-ug?token=t');
    expect(screen.getByRole('link', { name: 'About' }).className).toBe('other');
    expect(screen.getByRole('link', { name: 'About' }).hasAttribute('aria-current')).toBe(false);
  });

  it('redirects once rendered, in place of the entry', () => {
    const entries = window.history.length;
    render(<BrowserRouter><Where />{window.location.pathname === '/about' && <Navigate to="/final-steps?x=1" replace />}</BrowserRouter>);
    expect(where().textContent).toBe('/final-steps?x=1');
    expect(window.history.length).toBe(entries);
  });
});

describe('routing fixed at one address (the server drawing a page)', () => {
  it('shows that address and does not move', () => {
    const html = renderToString(<StaticRouter location="/reset?id=9"><Where /><Link to={{ search: '?id=1' }}>Again</Link></StaticRouter>);
    expect(html).toContain('/reset?id=9');
    expect(html).toContain('data-id="9"');
    expect(html).toContain('href="/reset?id=1"');
  });
});
