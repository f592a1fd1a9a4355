/** A staff member's read-only link carries the token of one applicant's view in its query. */
export const serviceTokenOf = (search: string = window.location.search): string | null => new URLSearchParams(search).get('service_token');
