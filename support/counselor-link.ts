import type { FastifyInstance } from 'fastify';
import { insertCounselorRequest } from '../src/server/db/repositories/counselor-request-repository.ts';
import { counselorLinkToken } from '../src/server/file-items/counselor-link-token.ts';
import { completeApplication } from './fixtures/complete-application.ts';
import { seedApplicant } from './seed.ts';

/**
 * A live counselor link: a submitted applicant (seeded under `email`) with a request for their
 * transcript, and the token its mail would carry, signed with the server's key. No mail is sent.
 */
export async function liveCounselorLink(app: FastifyInstance, email: string): Promise<{ applicantId: string; requestId: string; token: string }> {
  const { id } = await seedApplicant(app, { email, answers: completeApplication(), status: 'submitted' });
  const request = await insertCounselorRequest(app.db, {
    applicantId: id, itemId: 'transcript', email: 'counselor@school.example.org', language: 'en', expiresAt: new Date(Date.now() + 86_400_000),
  });
  await app.fileItems.mark(id, 'transcript', { state: 'requested', by: 'applicant' });
  return { applicantId: id, requestId: request.id, token: counselorLinkToken(await app.secrets.get('counselor-link-key', () => ''), request.id) };
}

/** The token of the link in a counselor's mail (the address's fragment). */
export function counselorTokenOfMail(text: string): string {
  const link = /https?:\/\/\S+\/counselor\S*#(\S+)/.exec(text);
  if (!link) throw new Error(`no counselor link in ${text}`);
  return link[1]!;
}
