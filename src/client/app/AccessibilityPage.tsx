import frame from '../../../schemas/text/frame.json';
import statement from '../../../schemas/text/accessibility-statement.json';
import { activeLanguage } from '../../shared/i18n/active-language.ts';
import { partner } from '../lib/partner-text.ts';
import { renderTemplate } from '../lib/render-template.tsx';

/** The day the statement was last reviewed, as the page's language writes a date ("4 de diciembre de 2026"). */
function reviewedOn(): string {
  const [year, month, day] = statement.reviewed.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(activeLanguage.code, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, day)));
}

/**
 * /accessibility: the accessibility statement, for applicants, in the page's language
 * (schemas/text/accessibility-statement.json): what works, what does not work well yet,
 * and how to report a barrier or get help. Open to anyone, signed in or not.
 */
export function AccessibilityPage() {
  const values = {
    partner: partner.name,
    office: partner.admissions_office,
    email: <a href={`mailto:${partner.help_email}`}>{partner.help_email}</a>,
    phone: <a href={`tel:${partner.phone.replace(/[^0-9+]/g, '')}`}>{partner.phone}</a>,
    date: reviewedOn(),
  };
  return (
    <section className="form-page statement-page" aria-labelledby="page-title">
      <h1 id="page-title" className="page-title">{frame.footer.accessibility}</h1>
      <p className="statement-intro">{renderTemplate(statement.intro, values)}</p>
      {statement.sections.map((section) => (
        <section key={section.id} className="statement-section" aria-labelledby={`statement-${section.id}`}>
          <h2 id={`statement-${section.id}`} className="section-title">{section.heading}</h2>
          {section.items.length > 1
            ? <ul>{section.items.map((item) => <li key={item}>{renderTemplate(item, values)}</li>)}</ul>
            : section.items.map((item) => <p key={item}>{renderTemplate(item, values)}</p>)}
        </section>
      ))}
    </section>
  );
}
