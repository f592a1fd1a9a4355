import { describe, expect, it } from 'vitest';
import { withoutScripts } from '../../bench/form/html-floor.ts';

describe('bench:form: a page as HTML alone', () => {
  it('keeps the document and its style sheets and drops everything that runs or fetches a script', () => {
    const rendered = [
      '<!doctype html><html lang="en"><head><title>About You</title>',
      '<script type="module" crossorigin src="/assets/index-1.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/react-2.js">',
      '<link rel="preload" as="fetch" crossorigin href="/api/profile">',
      '<link rel="stylesheet" crossorigin href="/assets/app-core-3.css">',
      '</head><body><div id="root"><main data-page="about"><input id="root_first_name" value=""></main></div>',
      '<noscript>This application needs JavaScript turned on.</noscript>',
      '<SCRIPT>window.x = "</div>";</SCRIPT></body></html>',
    ].join('\n');
    const html = withoutScripts(rendered);
    expect(html).not.toMatch(/script|preload|noscript/i);
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/app-core-3.css">');
    expect(html).toContain('<main data-page="about"><input id="root_first_name" value=""></main>');
    expect(html).toContain('<title>About You</title>');
  });
});
