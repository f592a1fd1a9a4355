import type { WebStatus } from '../../../../shared/lifecycle/web-status.ts';
import { callEndpoint, type EndpointInput } from '../../../lib/api-client.ts';

/** The application's lifecycle calls (spec section 7): status, last page, validations, submit, prefilled answers. */
export const postWebStatus = (status: Exclude<WebStatus, null>) => callEndpoint('postStatus', { body: { web_status: status } });
export const saveLastPage = (path: string) => callEndpoint('saveLastPage', { body: { last_page: path } });
export const saveValidations = (errors: EndpointInput<'saveValidations'>['body']) => callEndpoint('saveValidations', { body: errors });
export const submitApplication = () => callEndpoint('submit');
/** Answers staff prefilled for a prospect (/about?token=...). */
export const fetchPrefill = (token: string) => callEndpoint('prefill', { query: { token } });
