/** The application's status, derived from the distinct status entries (spec section 4). */
export type WebStatus = null | 'started' | 'validating' | 'submitted';

export const WEB_STATUS_ORDER = ['started', 'validating', 'submitted'] as const;

export function deriveWebStatus(entries: readonly { web_status: string }[]): WebStatus {
  const distinct = new Set(entries.map((entry) => entry.web_status)).size;
  return distinct === 0 ? null : WEB_STATUS_ORDER[Math.min(distinct, 3) - 1]!;
}
