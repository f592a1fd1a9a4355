import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';

export interface DeliveredEvent { id: string; type: string; data: Record<string, unknown>; deliveries: number }

/**
 * The office's side of the webhooks: an HTTP receiver that verifies every Standard Webhooks
 * signature with `secret`, keeps each event once by its webhook-id and counts repeats, as a
 * receiver that de-duplicates by id does.
 */
export function startWebhookReceiver(secret: string) {
  const verifier = new Webhook(secret);
  const received = new Map<string, DeliveredEvent>();
  const badSignatures: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let event: { type: string; data: Record<string, unknown> };
      try {
        event = verifier.verify(Buffer.concat(chunks).toString('utf8'), request.headers as Record<string, string>) as typeof event;
      } catch (error) {
        badSignatures.push(String(error));
        return void response.writeHead(400).end();
      }
      const id = request.headers['webhook-id'] as string;
      const seen = received.get(id);
      if (seen) seen.deliveries++;
      else received.set(id, { id, type: event.type, data: event.data, deliveries: 1 });
      response.writeHead(204).end();
    });
  });
  return {
    received, badSignatures,
    ofType: (type: string, applicantId: string) => [...received.values()].filter((event) => event.type === type && event.data.applicant_id === applicantId),
    /** Starts listening; resolves with the URL to give the server as WEBHOOK_URL. */
    listen: () => new Promise<string>((ready) => server.listen(0, '127.0.0.1', () => ready(`http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`))),
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}
