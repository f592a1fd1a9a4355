import type { FastifyInstance } from 'fastify';
import documentsText from '../../../../schemas/documents.json';
import { HttpError } from '../../lib/http-error.ts';

/** The PDF copy of the application: GET /api/pdf starts or reports it; /api/pdf/file downloads it. */
export default async function pdfRoutes(app: FastifyInstance) {
  app.endpoint('applicationPdf', (request) => app.applicationPdf.request(request.applicant!.id, request.query.refresh === '1'));

  app.endpoint('applicationPdfFile', async (request, reply) => {
    const pdf = await app.applicationPdf.file(request.applicant!.id);
    if (!pdf) throw new HttpError(404, documentsText.messages.download_error, { code: 'NO_PDF' });
    // the name in ASCII for old clients, and as written (RFC 6266, RFC 5987) for the others
    const ascii = pdf.fileName.normalize('NFD').replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '');
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(pdf.fileName)}`)
      .send(Buffer.from(pdf.bytes));
  });
}
