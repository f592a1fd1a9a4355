import { callEndpoint } from '../../../lib/api-client.ts';

/** The header the link's token travels in: never the address, which logs and Referer carry. */
const headers = (token: string) => ({ accept: 'application/json', 'content-type': 'application/json', 'x-counselor-link': token });

/** The counselor page's calls: the link's token names the request, nothing else does. */
export function counselorApi(token: string) {
  const init = { headers: headers(token) };
  return {
    request: () => callEndpoint('counselorRequest', {}, init),
    presign: () => callEndpoint('counselorPresign', {}, init),
    register: (fileKey: string, fileName: string) => callEndpoint('counselorRegister', { body: { file_key: fileKey, file_name: fileName } }, init),
    status: () => callEndpoint('counselorDocumentStatus', {}, init),
  };
}

/** The applicant's calls for their application file's items. */
export const askCounselor = (item: string, email: string, language: 'en' | 'es') => callEndpoint('askCounselor', { params: { item }, body: { email, language } });
export const withdrawCounselorRequest = (item: string) => callEndpoint('withdrawCounselorRequest', { params: { item } });
export const itemUploadCalls = (item: string) => ({
  presign: () => callEndpoint('presignItemUpload', { params: { item } }),
  register: (fileKey: string, fileName: string) => callEndpoint('registerItemDocument', { params: { item }, body: { file_key: fileKey, file_name: fileName } }),
  status: () => callEndpoint('itemDocumentStatus', { params: { item } }),
});
