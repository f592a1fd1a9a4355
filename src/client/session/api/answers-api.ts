import { API_ROUTES } from '../../../shared/generated/api-types.ts';
import { callEndpoint, endpointUrl, type EndpointInput } from '../../lib/api-client.ts';

type Answers = Record<string, string | boolean>;
/** when each key was changed, by the client's clock (ms): the server keeps the newest change of a key */
export type AnswerClocks = Record<string, number>;

const body = (answers: Answers, clocks: AnswerClocks): EndpointInput<'saveAnswers'>['body'] => ({ ...answers, _clock: clocks });

/** PUT /api/answer: the changed answers by key, with their clocks; `stale` lists keys a newer change holds. */
export const saveAnswers = (answers: Answers, clocks: AnswerClocks) => callEndpoint('saveAnswers', { body: body(answers, clocks) });

/** The same save handed to the browser as the page goes away (fetch keepalive): nobody waits for its answer. */
export function saveAnswersAsPageCloses(answers: Answers, clocks: AnswerClocks): void {
  void fetch(endpointUrl('saveAnswers'), {
    method: API_ROUTES.saveAnswers.method, keepalive: true, credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body(answers, clocks)),
  }).catch(() => {});
}
