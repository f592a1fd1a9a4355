import { callEndpoint } from '../../../lib/api-client.ts';

/** Tells the server the applicant is active, so the session outlives the inactivity timeout. */
export const keepAlive = () => callEndpoint('keepAlive');
