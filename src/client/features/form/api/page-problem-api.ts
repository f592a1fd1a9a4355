import type { ReportPageProblemBody } from '../../../../shared/generated/api-types.ts';
import { callEndpoint } from '../../../lib/api-client.ts';

/** Tells the server's log that the browser drew part of a drawn page afresh; nothing waits for it, and a failure is no one's concern. */
export function reportPageProblem(body: ReportPageProblemBody): void {
  callEndpoint('reportPageProblem', { body }, { keepalive: true }).catch(() => {});
}
