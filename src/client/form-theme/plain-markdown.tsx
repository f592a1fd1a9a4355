import type { ReactNode } from 'react';

/**
 * Stands in for markdown-to-jsx, which RJSF imports for `ui:enableMarkdownIn...`. Our
 * schemas hold plain text, so the 25 KB parser is left out of the bundle (vite.config.ts
 * aliases it here); a text still shows, unformatted, if a schema ever turns it on.
 */
export function Markdown({ children }: { children?: ReactNode }) {
  return <span>{children}</span>;
}

export default Markdown;
