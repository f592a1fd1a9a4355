import apiMessages from '../../../schemas/text/api-messages.json';
import { form } from '../../shared/form/form-model-data.ts';
import type { PageId } from '../../shared/form/form-model.ts';
import type { Language } from '../../shared/i18n/languages.ts';
import type { FieldErrors } from '../../shared/validation/field-errors.ts';
import { fileIn, translateMessage } from '../i18n/language-texts.ts';

/**
 * What the server adds to its drawing of a form page for a browser without scripts, in the
 * two <noscript> slots the page leaves for it (src/client/app/FormPageRoute.tsx): the form's
 * button and the list of its fields, and after a post the server's message. A browser with
 * scripts never shows them, and React leaves a noscript's content alone.
 */

/** The answer keys the drawn form has controls for, in the order drawn. */
export function drawnFields(markup: string, page: PageId): string[] {
  const keys = new Set<string>();
  for (const match of markup.matchAll(/<(?:input|select|textarea)\b[^>]*?\sname="([^"]+)"/g)) {
    if (form.fields[match[1]!]?.page === page) keys.add(match[1]!);
  }
  return [...keys];
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);

export type PageNotice = { kind: 'saved' } | { kind: 'problems'; errors: FieldErrors } | { kind: 'sign-in' } | { kind: 'submitted' };

/** The page's markup with its slots filled: the form's button (and fields) always, the notice after a post. */
export function fillSlots(markup: string, page: PageId, language: Language, notice: PageNotice | null): string {
  const texts = fileIn(language, 'text/api-messages.json', apiMessages);
  // the fields drawn: a box left unticked is not posted, so the post names what the form had
  const fields = `<input type="hidden" name="_fields" value="${escapeHtml(drawnFields(markup, page).join(' '))}">`;
  const save = `${fields}<button type="submit" class="bp6-button bp6-intent-primary page-save"><span class="bp6-button-text">${escapeHtml(texts.save_page)}</span></button>`;
  return markup
    .replace('<noscript data-slot="page-save"></noscript>', `<noscript data-slot="page-save">${save}</noscript>`)
    .replace('<noscript data-slot="page-notice"></noscript>', `<noscript data-slot="page-notice">${notice ? noticeHtml(notice, texts, language) : ''}</noscript>`);
}

function noticeHtml(notice: PageNotice, texts: typeof apiMessages, language: Language): string {
  if (notice.kind === 'saved') return `<p class="page-notice" role="status">${escapeHtml(texts.saved)}</p>`;
  if (notice.kind === 'sign-in') return `<p class="page-notice page-notice-problem" role="alert">${escapeHtml(texts.sign_in_to_save)}</p>`;
  if (notice.kind === 'submitted') return `<p class="page-notice page-notice-problem" role="alert">${escapeHtml(texts.submitted)}</p>`;
  // as the missing-information panel lists them: each message a link to its field (/{page}#{key})
  const items = Object.entries(notice.errors).flatMap(([key, messages]) => messages.map((message) => (
    `<li><a href="#${escapeHtml(key)}">${escapeHtml(translateMessage(language, message))}</a></li>`
  )));
  return `<div class="page-notice page-notice-problem" role="alert"><p>${escapeHtml(texts.page_problems)}</p><ul class="error-summary">${items.join('')}</ul></div>`;
}
