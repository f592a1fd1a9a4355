import rules from '../../../schemas/documents.json';

export const documentRules = rules;

export interface FileFacts {
  name: string;
  size: number;
}

/** The first problem with a chosen file, as the spec words it (section 5 "Files"), or undefined. */
export function fileProblem(file: FileFacts): string | undefined {
  const extension = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase() : '';
  if (!rules.extensions.includes(extension)) return rules.messages.wrong_type;
  if (file.name.length > rules.max_name_length) return rules.messages.name_too_long;
  if (file.size === 0) return rules.messages.empty;
  if (file.size > rules.max_bytes) return rules.messages.too_large;
  return undefined;
}

/** File size shown with no decimals (spec section 9). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}
