/**
 * The schema files whose texts the client shows, as the modules every component imports.
 * A language other than English writes its texts into these very objects before the app's
 * modules run (apply-language.ts), so each component reads its language with no change.
 */
import confirm from '../../../schemas/auth/confirm.json';
import definitions from '../../../schemas/auth/definitions.json';
import forgot from '../../../schemas/auth/forgot.json';
import login from '../../../schemas/auth/login.json';
import messages from '../../../schemas/auth/messages.json';
import reset from '../../../schemas/auth/reset.json';
import signup from '../../../schemas/auth/signup.json';
import banners from '../../../schemas/banners.json';
import documents from '../../../schemas/documents.json';
import partner from '../../../schemas/partner.json';
import accessibility from '../../../schemas/text/accessibility.json';
import errors from '../../../schemas/text/errors.json';
import frame from '../../../schemas/text/frame.json';
import lookup from '../../../schemas/text/lookup.json';
import formModel from '../../shared/generated/form-model.json';

/** By their path under schemas/, as the language files name them. */
export const TEXT_MODULES: Record<string, object> = {
  'auth/confirm.json': confirm,
  'auth/definitions.json': definitions,
  'auth/forgot.json': forgot,
  'auth/login.json': login,
  'auth/messages.json': messages,
  'auth/reset.json': reset,
  'auth/signup.json': signup,
  'banners.json': banners,
  'documents.json': documents,
  'partner.json': partner,
  'text/accessibility.json': accessibility,
  'text/errors.json': errors,
  'text/frame.json': frame,
  'text/lookup.json': lookup,
};

export const FORM_MODEL: object = formModel;
