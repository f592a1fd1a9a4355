import { createHmac } from 'node:crypto';

/**
 * The key under which an applicant's browser keeps answers it has not had acknowledged
 * (encrypted in localStorage, so they outlive the tab), and the name it files them under.
 * Both are derived from a server secret and the applicant, so they need no table, are the
 * same on every server and every device, and are given only to that applicant's session
 * (the profile): after a logout the next person at the computer finds ciphertext filed
 * under a name that says nothing. ADR 015 has the whole design.
 */
export function saveQueueKeys(secret: string) {
  const derive = (purpose: string, applicantId: string) => createHmac('sha256', secret).update(`${purpose}:${applicantId}`).digest('base64url');
  return (applicantId: string) => ({
    /** AES-GCM, 256 bits */
    key: derive('save-queue-key', applicantId),
    /** a name of 128 bits: enough to tell accounts apart at one computer, nothing to look up */
    tag: derive('save-queue-tag', applicantId).slice(0, 22),
  });
}
