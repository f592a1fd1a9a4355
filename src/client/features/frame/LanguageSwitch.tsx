import { useLocation } from '../../lib/routing.tsx';
import frame from '../../../../schemas/text/frame.json';
import { activeLanguage } from '../../../shared/i18n/active-language.ts';
import languageNames from '../../../shared/generated/language-names.json';
import { LANGUAGE_PARAM, LANGUAGES, type Language } from '../../../shared/i18n/languages.ts';

/**
 * This page in another language: the server keeps the choice and answers with the page again.
 * The fragment stays: a counselor's link keeps its token there (sent to no server).
 */
function hrefIn(language: Language, pathname: string, search: string, hash: string): string {
  const params = new URLSearchParams(search);
  params.set(LANGUAGE_PARAM, language);
  return `${pathname}?${params}${hash}`;
}

/**
 * The language links of the header: a real link per language, each named in its own
 * language (CLDR) and marked with it, so a reader who cannot read the page's language still
 * finds theirs. The page's own language is shown as the current one.
 */
export function LanguageSwitch() {
  const { pathname, search, hash } = useLocation();
  return (
    <nav className="language-switch" aria-label={frame.language_switch}>
      <ul>
        {LANGUAGES.map((language) => (
          <li key={language}>
            <a
              href={hrefIn(language, pathname, search, hash)}
              hrefLang={language}
              lang={language}
              aria-current={language === activeLanguage.code ? 'true' : undefined}
            >
              {languageNames[language]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
