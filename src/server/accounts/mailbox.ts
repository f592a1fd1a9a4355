/**
 * The inbox an e-mail address delivers to, which is what the limits count: accounts are
 * free and one inbox has endless spellings (`A@x`, `a+1@x`, `a.b@gmail.com` and `ab@gmail.com`).
 * Letters are compared without case, a `+tag` (plus-addressing, which nearly every provider
 * delivers to the same inbox) is dropped, and where a provider is known to ignore dots in
 * the local part (Gmail) they are dropped too. The account keeps the address as typed: two
 * applicants may share an inbox (twins do); the limits count the inbox, they do not forbid it.
 */

/** Providers that deliver every dotted spelling of a local part to one inbox, and the domain they deliver for. */
const DOTS_IGNORED: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

export function normalisedMailbox(address: string): string {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at <= 0) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1).replace(/\.$/, '');
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (DOTS_IGNORED[domain]) {
    domain = DOTS_IGNORED[domain]!;
    local = local.replaceAll('.', '');
  }
  return `${local}@${domain}`;
}
