import type { FastifyInstance } from 'fastify';

/**
 * The office API (schemas/api/application-file.json, access "office-key"): the office's
 * systems read an applicant's application file and mark items received, waived or missing.
 * Each change is recorded as made by `office:<key name>`. The key and its limits are the
 * guard's (plugins/office-keys.ts).
 */
export default async function officeRoutes(app: FastifyInstance) {
  const by = (name: string) => `office:${name}`;

  app.endpoint('officeApplicationFile', (request) => app.officeFile.fileOf(request.params.applicantId));
  app.endpoint('officeFindApplicant', (request) => app.officeFile.fileByEmail(request.query.email));
  app.endpoint('officeMarkFileItem', (request) => app.officeFile.mark(
    request.params.applicantId, request.params.itemId, { state: request.body.state, note: request.body.note ?? null }, by(request.officeKey!.name),
  ));
  app.endpoint('officeWithdrawCounselorRequest', async (request) => {
    const { applicantId, itemId } = request.params;
    await app.officeFile.fileOf(applicantId); // an unknown applicant is NOT_FOUND, as on every office endpoint
    await app.counselorRequests.withdrawByOffice(applicantId, itemId, by(request.officeKey!.name));
    return app.officeFile.fileOf(applicantId);
  });
  // a document the office received (by post): the applicant's own pipeline, the item received from the office once it converts
  app.endpoint('officePresignItemUpload', (request) => app.itemDocuments.office.presign(request.params.applicantId, request.params.itemId));
  app.endpoint('officeRegisterItemDocument', (request) => app.itemDocuments.office.register(
    request.params.applicantId, request.params.itemId, request.body, by(request.officeKey!.name),
  ));
  app.endpoint('officeItemDocumentStatus', (request) => app.itemDocuments.office.status(request.params.applicantId, request.params.itemId));
}
