import { API_ROUTES } from '../../../shared/generated/api-types.ts';
import { callEndpoint, endpointUrl, type EndpointInput, type EndpointReply } from '../../lib/api-client.ts';

type Answers = Record<string, string | boolean>;
/** when each key was changed, by the client's clock (ms): the server keeps the newest change of a key */
export type AnswerClocks = Record<string, number>;
/** which page sends a save, and the stored change of each key it showed: the server refuses a change made on a view no longer true */
export interface SaveBasis {
  writer: string;
  seen: AnswerClocks;
}
export type SaveReply = EndpointReply<'saveAnswers'>;

const body = (answers: Answers, clocks: AnswerClocks, basis: SaveBasis): EndpointInput<'saveAnswers'>['body'] => ({
  ...answers, _clock: clocks, _seen: basis.seen, _writer: basis.writer,
});

/** PUT /api/answer: the changed answers by key, with their clocks and what the page saw; `stale` lists keys it did not write. */
export const saveAnswers = (answers: Answers, clocks: AnswerClocks, basis: SaveBasis) => callEndpoint('saveAnswers', { body: body(answers, clocks, basis) });

/** The same save handed to the browser as the page goes away (fetch keepalive): nobody waits for its answer. */
export function saveAnswersAsPageCloses(answers: Answers, clocks: AnswerClocks, basis: SaveBasis): void {
  void fetch(endpointUrl('saveAnswers'), {
    method: API_ROUTES.saveAnswers.method, keepalive: true, credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body(answers, clocks, basis)),
  }).catch(() => {});
}
