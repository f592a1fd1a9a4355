import { Navigate, createBrowserRouter, useLocation, type RouteObject } from 'react-router-dom';
import partner from '../../../schemas/partner.json';
import a11y from '../../../schemas/text/accessibility.json';
import errors from '../../../schemas/text/errors.json';
import { setUnauthorizedHandler } from '../lib/api-client.ts';
import { clearClientData } from '../session/end-session.ts';
import { loadProfile } from '../session/profile.ts';
import { AuthFrame } from './AuthFrame.tsx';
import { FormFrame } from './FormFrame.tsx';
import { accountPagesRule, completionRule } from './location-rules.ts';
import { RootErrorScreen } from './RootErrorScreen.tsx';
import { RootLayout } from './RootLayout.tsx';

/** Unknown paths go to the default route, keeping the query string. */
function RedirectToDefault() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: partner.default_route, search }} replace />;
}

const formPage = async () => ({ Component: (await import('./FormPageRoute.tsx')).FormPageRoute });

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RootErrorScreen />,
    children: [
      {
        id: 'form-pages',
        element: <FormFrame />,
        loader: loadProfile,
        hydrateFallbackElement: <div className="app-loading" role="status" aria-label={a11y.loading} />,
        errorElement: <RootErrorScreen />,
        children: [
          { path: '/about', lazy: formPage },
          { path: '/education-ug', lazy: formPage },
          { path: '/final-steps', lazy: formPage },
          { path: '/completion', loader: completionRule, lazy: async () => ({ Component: (await import('./CompletionPage.tsx')).CompletionPage }) },
        ],
      },
      {
        id: 'auth-pages',
        element: <AuthFrame />,
        loader: accountPagesRule,
        children: [
          { path: '/signup', lazy: async () => ({ Component: (await import('../features/accounts/SignupPage.tsx')).SignupPage }) },
          { path: '/confirm', lazy: async () => ({ Component: (await import('../features/accounts/ConfirmPage.tsx')).ConfirmPage }) },
          { path: '/login', lazy: async () => ({ Component: (await import('../features/accounts/LoginPage.tsx')).LoginPage }) },
          { path: '/forgot', lazy: async () => ({ Component: (await import('../features/accounts/ForgotPage.tsx')).ForgotPage }) },
          { path: '/reset', lazy: async () => ({ Component: (await import('../features/accounts/ResetPage.tsx')).ResetPage }) },
        ],
      },
      { path: '*', element: <RedirectToDefault /> },
    ],
  },
];

export const router = createBrowserRouter(routes);

// spec section 8: a 401 anywhere clears cached data and goes to /login with the session-invalid message
setUnauthorizedHandler(() => {
  void clearClientData();
  void router.navigate('/login', { replace: true, state: { errorMessage: errors.session_invalid } });
});
