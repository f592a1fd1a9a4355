import type { FastifyInstance } from 'fastify';
import packageJson from '../../../package.json';
import { openApiDocument } from '../../shared/api/openapi.ts';

/** GET /api/openapi.json: the API contract for integrators (made once, at start). */
export default async function openApiRoutes(app: FastifyInstance) {
  const document = openApiDocument(packageJson.version);
  app.endpoint('openapi', async () => document);
}
