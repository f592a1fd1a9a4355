import { apiRequest } from '../../lib/api-client.ts';

/** The account calls of spec section 7. */
export interface MessageReply {
  message: string;
  delivery?: 'sent' | 'failed';
}

export const accountApi = {
  signup: (body: { username: string; password: string; answers?: Record<string, string>; prefill_token?: string }) =>
    apiRequest<MessageReply>('/public/signup', 'POST', body),
  confirm: (body: { username: string; code: string }) => apiRequest<MessageReply>('/public/confirm', 'POST', body),
  resend: (body: { username: string }) => apiRequest<MessageReply>('/public/resend-confirm', 'POST', body),
  login: (body: { username: string; password: string }) => apiRequest<MessageReply>('/public/login', 'POST', body),
  forgot: (body: { username: string }) => apiRequest<MessageReply>('/public/forgot-password', 'POST', body),
  reset: (body: { username: string; password: string; confirm_password: string; id: string }) =>
    apiRequest<MessageReply>('/public/reset-password', 'POST', body),
};
