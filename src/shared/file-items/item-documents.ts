/**
 * An application file item's document lives in the documents table beside the form's, under
 * the answer key `file-item:<item id>`: no question's key has a colon, so it is never taken for
 * a form answer (the profile's document_answer, the PDF copy, the export leave it out), while
 * it counts in the applicant's storage quota like any upload.
 */
export const ITEM_ANSWER_PREFIX = 'file-item:';

export const itemAnswerKey = (itemId: string) => `${ITEM_ANSWER_PREFIX}${itemId}`;

export const isItemAnswerKey = (answerKey: string) => answerKey.startsWith(ITEM_ANSWER_PREFIX);
