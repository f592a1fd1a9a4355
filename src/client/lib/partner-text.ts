import partner from '../../../schemas/partner.json';
import { fillTemplate } from '../../shared/text/fill-template.ts';

/** Fills a schema text with the partner constants ({partner}, {short_name}, {email}) and any extra values. */
export function partnerText(template: string, values: Record<string, string | number | undefined> = {}): string {
  return fillTemplate(template, { partner: partner.name, short_name: partner.short_name, email: partner.help_email, ...values });
}

export { partner };
