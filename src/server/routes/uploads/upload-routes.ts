import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import documents from '../../../../schemas/documents.json';
import { HttpError } from '../../lib/http-error.ts';
import type { ErrorCode } from '../../../shared/generated/api-types.ts';
import { verifyPolicy, type PolicyProblem } from '../../storage/upload-policy.ts';

/** Why a policy was refused, as the contract's error code. */
const POLICY_CODES = {
  signature: 'UPLOAD_SIGNATURE', expired: 'UPLOAD_EXPIRED', key: 'UPLOAD_KEY', malformed: 'UPLOAD_MALFORMED',
} as const satisfies Record<PolicyProblem, ErrorCode>;

const MAX_FIELDS = 8;

/**
 * POST /uploads: local storage's stand-in for S3's presigned POST. Authorised by the signed
 * policy, not by a cookie: exactly the signed key, within the size range, before expiry,
 * the file last and no other fields, and a key is never written twice.
 */
export default async function uploadRoutes(app: FastifyInstance) {
  await app.register(multipart, {
    limits: { fields: MAX_FIELDS, files: 1, parts: MAX_FIELDS + 1, fileSize: documents.max_bytes + 1, fieldSize: 4096 },
  });

  app.endpoint('upload', async (request, reply) => {
    const fields: Record<string, string> = {};
    let stored = false;
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (!['key', 'policy', 'x-signature', 'Content-Type'].includes(part.fieldname)) {
          throw new HttpError(403, documents.messages.upload_refused, { code: 'EXTRA_FIELD' });
        }
        fields[part.fieldname] = String(part.value);
        continue;
      }
      const check = verifyPolicy(app.uploadSecret, fields.policy ?? '', fields['x-signature'] ?? '', fields.key ?? '');
      if (!check.ok) {
        part.file.resume();
        throw new HttpError(403, check.problem === 'expired' ? documents.messages.upload_expired : documents.messages.upload_refused, { code: POLICY_CODES[check.problem] });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file) {
        size += (chunk as Buffer).length;
        if (size > check.max) break;
        chunks.push(chunk as Buffer);
      }
      if (size > check.max || part.file.truncated) {
        part.file.resume();
        throw new HttpError(413, documents.messages.too_large, { code: 'TOO_LARGE' });
      }
      if (size < check.min) throw new HttpError(400, documents.messages.empty, { code: 'EMPTY' });
      if (await app.storage.exists(fields.key!)) throw new HttpError(409, documents.messages.upload_exists, { code: 'UPLOAD_EXISTS' });
      // a slot registered or swept takes nothing more (the quota counted it while it was open)
      if (!(await app.documents.uploadSlotOpen(fields.key!))) throw new HttpError(403, documents.messages.upload_refused, { code: 'UPLOAD_UNKNOWN' });
      await app.storage.put(fields.key!, Buffer.concat(chunks), 'application/octet-stream');
      await app.documents.uploadStored(fields.key!, size);
      stored = true;
    }
    if (!stored) throw new HttpError(400, documents.messages.file_missing, { code: 'NO_FILE' });
    return reply.status(204).send();
  });
}
