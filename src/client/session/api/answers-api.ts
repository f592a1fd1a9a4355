import { API_ROUTES } from '../../../shared/generated/api-types.ts';
import { callEndpoint, endpointUrl, type EndpointInput } from '../../lib/api-client.ts';

type Answers = EndpointInput<'saveAnswers'>['body'];

/** PUT /api/answer: the changed answers by key. */
export const saveAnswers = (answers: Answers) => callEndpoint('saveAnswers', { body: answers });

/** The same save handed to the browser as the page goes away (fetch keepalive): nobody waits for its answer. */
export function saveAnswersAsPageCloses(answers: Answers): void {
  void fetch(endpointUrl('saveAnswers'), {
    method: API_ROUTES.saveAnswers.method, keepalive: true, credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(answers),
  }).catch(() => {});
}
