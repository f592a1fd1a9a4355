import type { FastifyInstance } from 'fastify';

/** GET and PUT /api/reminders: whether the applicant gets deadline reminders (the account menu). */
export default async function reminderRoutes(app: FastifyInstance) {
  app.endpoint('reminderSetting', async (request) => ({ reminders: await app.reminders.isOn(request.applicant!.id) }));
  app.endpoint('saveReminderSetting', async (request) => {
    await app.reminders.setOn(request.applicant!.id, request.body.reminders);
    return { reminders: await app.reminders.isOn(request.applicant!.id) };
  });
}
