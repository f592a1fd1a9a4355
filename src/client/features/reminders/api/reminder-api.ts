import { callEndpoint } from '../../../lib/api-client.ts';

/** Whether the applicant gets deadline reminders, and the one-click unsubscribe a reminder's page posts. */
export const fetchReminderSetting = () => callEndpoint('reminderSetting');
export const saveReminderSetting = (reminders: boolean) => callEndpoint('saveReminderSetting', { body: { reminders } });
export const unsubscribe = (token: string) => callEndpoint('unsubscribe', { query: { token }, body: { 'List-Unsubscribe': 'One-Click' } });
