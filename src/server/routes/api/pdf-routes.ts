import type { FastifyInstance } from 'fastify';
import documentsText from '../../../../schemas/documents.json';
import { HttpError } from '../../lib/http-error.ts';

/** The PDF copy of the application: GET /api/pdf starts or reports it; /api/pdf/file downloads it. */
export default async function pdfRoutes(app: FastifyInstance) {
  app.endpoint('applicationPdf', (request) => app.applicationPdf.request(request.applicant!.id, request.query.refresh === '1'));

  app.endpoint('applicationPdfFile', async (request, reply) => {
    const pdf = await app.applicationPdf.file(request.applicant!.id);
    if (!pdf) throw new HttpError(404, documentsText.messages.download_error, { code: 'NO_PDF' });
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', 'attachment; filename="application.pdf"')
      .send(Buffer.from(pdf));
  });
}
