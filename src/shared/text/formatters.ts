/** Display formats of stored digits (spec "Reusable inputs"). */

export function digitsOf(value: string, max: number): string {
  return value.replace(/\D/g, '').slice(0, max);
}

/**
 * (ddd) ddd-dddd, built up as the digits arrive. A number abroad ("+" and its country code)
 * or more digits than a US number has is shown as stored: a phone is never shown cut short.
 */
export function formatPhone(value: string): string {
  if (value.trim().startsWith('+') || value.replace(/\D/g, '').length > 10) return value;
  const d = digitsOf(value, 10);
  if (d.length === 0) return '';
  if (d.length <= 3) return `(${d}`;
  if (d.length <= 6) return `(${d.slice(0, 3)}) ${d.slice(3)}`;
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

/** 3-2-4 digits with dashes (social-security-style values). */
export function formatThreeTwoFour(value: string): string {
  const d = digitsOf(value, 9);
  if (d.length <= 3) return d;
  if (d.length <= 5) return `${d.slice(0, 3)}-${d.slice(3)}`;
  return `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}`;
}
