import { callEndpoint, type EndpointReply } from '../../lib/api-client.ts';

/** The document calls of spec section 4: a presigned POST, the conversion's registration, status and removal. */
export type Presigned = EndpointReply<'presignUpload'>;
export type ConversionStatus = EndpointReply<'documentStatus'>;

export const presignUpload = (key: string) => callEndpoint('presignUpload', { body: { answer_key: key } });
export const registerDocument = (key: string, fileKey: string, fileName: string) =>
  callEndpoint('registerDocument', { params: { key }, body: { file_key: fileKey, file_name: fileName } });
export const conversionStatus = (key: string) => callEndpoint('documentStatus', { params: { key } });
/** Deletes the conversion only (a reset after a failed upload, a tab switch). */
export const removeConversion = (key: string) => callEndpoint('removeConvertedDocument', { params: { key } });
/** Deletes the document, its conversion and its answer. */
export const removeDocument = (key: string) => callEndpoint('removeDocument', { params: { key } });
