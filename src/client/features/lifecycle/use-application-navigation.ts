import { useNavigate } from '../../lib/routing.tsx';
import partner from '../../../../schemas/partner.json';
import frame from '../../../../schemas/text/frame.json';
import type { PageId } from '../../../shared/form/form-model.ts';
import { postWebStatus, submitApplication } from './api/lifecycle-api.ts';
import { ServerError, messageOf } from '../../lib/api-errors.ts';
import { useToast } from '../../lib/toasts.tsx';
import { hasAnswers, keepAnonymousAnswers } from '../../session/carried-answers.ts';
import { useClientSnapshot } from '../../session/client-snapshot.ts';
import { useApplicationSession } from '../../session/session-hooks.ts';
import { reportErrors } from './application-errors.ts';
import { MISSING_INFO_HEADING_ID } from './MissingInfoPanel.tsx';
import { addLocalStatus, postStatus } from './status-actions.ts';

/**
 * The navigation rules of spec section 2: step links, the continue button and the submit
 * button, for anonymous visitors (who are sent to sign-up with their answers) and for
 * logged-in applicants (whose answers are saved and validated first).
 */
export function useApplicationNavigation() {
  const navigate = useNavigate();
  const snapshot = useClientSnapshot();
  const toast = useToast();
  const session = useApplicationSession();
  const { answers, errors } = session;

  const toSignup = (): boolean => {
    const typed = answers.get();
    if (!hasAnswers(typed)) return false;
    keepAnonymousAnswers(typed);
    navigate('/signup', { state: { answers: typed } });
    return true;
  };

  /** Saves (never blocking on a slow network: unsaved answers stay queued) and validates. */
  const saveAndValidate = async () => {
    await Promise.race([session.flush(), new Promise((resolve) => setTimeout(resolve, 4000))]);
    const found = await errors.revalidate();
    if (snapshot.web_status === 'validating') await reportErrors(found);
  };

  const markPageChange = (target: string) => {
    if (!snapshot.has_changed_page && target !== window.location.pathname) session.navigation.set({ ...session.navigation.get(), hasChangedPage: true });
  };

  return {
    /** A step link: replaces the history entry. */
    async followLink(target: string): Promise<void> {
      if (!snapshot.is_logged_in) {
        if (!toSignup()) navigate(target, { replace: true });
        return;
      }
      await saveAndValidate();
      markPageChange(target);
      navigate(target, { replace: true });
    },

    /** The continue/save button: to the next page, at its top. */
    async continueTo(target: string): Promise<void> {
      if (!snapshot.is_logged_in) {
        if (!toSignup()) navigate(target);
        window.scrollTo(0, 0);
        return;
      }
      await saveAndValidate();
      markPageChange(target);
      navigate(target);
      window.scrollTo(0, 0);
    },

    /** Submit (spec section 4 "web_status"). */
    async submit(): Promise<void> {
      if (!snapshot.is_logged_in) {
        keepAnonymousAnswers(answers.get());
        navigate('/signup', { state: { answers: answers.get() } });
        return;
      }
      try {
        await session.flush();
        if (snapshot.web_status === null || snapshot.web_status === 'started') {
          if (snapshot.web_status === null) await postStatus('started');
          await postStatus('validating');
        }
        errors.setActive(true);
        const found = await errors.compute();
        if (Object.keys(found).length) {
          await errors.revalidate();
          await reportErrors(found);
          markPageChange(partner.default_route);
          navigate(partner.default_route, { state: { focusTarget: MISSING_INFO_HEADING_ID } });
          return;
        }
        await submitApplication();
        await postWebStatus('submitted').catch(() => {}); // a no-op after submit
        await addLocalStatus('submitted');
        navigate('/completion', { replace: true, state: { successMessage: frame.completion.message } });
      } catch (error) {
        if (error instanceof ServerError && error.code === 'INCOMPLETE' && error.fieldErrors) {
          errors.showServerErrors(error.fieldErrors, (error.body as { pages?: Record<string, string[]> }).pages ?? {});
          navigate(partner.default_route, { state: { focusTarget: MISSING_INFO_HEADING_ID } });
          return;
        }
        toast({ severity: 'error', message: messageOf(error), key: 'submit' });
      }
    },
  };
}

export type PageNavigation = ReturnType<typeof useApplicationNavigation>;
export const pagePath = (page: PageId) => `/${page}`;
