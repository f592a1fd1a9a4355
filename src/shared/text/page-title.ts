import { ACCESSIBILITY_PATH } from '../accessibility-statement.ts';
import { fillTemplate } from './fill-template.ts';

/** What titles a page, from text/frame.json in the page's language. */
interface TitleTexts {
  page_title: string;
  steps: { path: string; label: string }[];
  completion: { title: string };
  footer: { accessibility: string };
}

/** The name a route's document title gives its page: a step's, the completion page's or the accessibility statement's; none for the others (account pages title themselves). */
export function routePageName(path: string, texts: TitleTexts): string | undefined {
  if (path === '/completion') return texts.completion.title;
  if (path === ACCESSIBILITY_PATH) return texts.footer.accessibility;
  return texts.steps.find((step) => step.path === path)?.label;
}

/** A document title (WCAG 2.4.2): the page's name, then the partner's (text/frame.json's page_title); the partner's alone for a page without one. */
export function pageTitle(page: string | undefined, partnerName: string, texts: Pick<TitleTexts, 'page_title'>): string {
  return page ? fillTemplate(texts.page_title, { page, partner: partnerName }) : partnerName;
}
