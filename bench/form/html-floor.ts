/**
 * Each of our pages as HTML alone, the floor of its time to interactive: the
 * document our client rendered, scripts taken out, served by the reference server with our
 * headers beside its own style sheets. What the browser spends on it (parsing, styling and
 * laying out the page's controls) any client of the same page spends too; our page's time
 * less this floor is what our scripts cost.
 */
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { openUntilInteractive } from './bench-setup.ts';

/** The rendered document without anything that would run or fetch a script. */
export function withoutScripts(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*\brel="(?:modulepreload|preload)"[^>]*>/gi, '')
    .replace(/<noscript>[\s\S]*?<\/noscript>/gi, '');
}

/**
 * Opens each page at `url/<page>` in a fresh context, once the first field shows and the main
 * thread is idle writes its document without scripts to `staticDir/<name>/index.html`, and
 * copies the build's style sheets (hashed names, apart from the reference pages') to
 * `staticDir/assets`. Returns the names written, `html-<page>`.
 */
export async function writeHtmlFloors(options: {
  browser: Browser; url: string; pages: readonly string[]; clientDir: string; staticDir: string;
}): Promise<string[]> {
  const { browser, url, pages, clientDir, staticDir } = options;
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  for (const file of readdirSync(join(clientDir, 'assets')).filter((name) => name.endsWith('.css'))) {
    copyFileSync(join(clientDir, 'assets', file), join(staticDir, 'assets', file));
  }
  const names: string[] = [];
  for (const page of pages) {
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      await openUntilInteractive(tab, `${url}/${page}`);
      const html = (await tab.evaluate('"<!doctype html>" + document.documentElement.outerHTML')) as string;
      const name = `html-${page}`;
      mkdirSync(join(staticDir, name), { recursive: true });
      writeFileSync(join(staticDir, name, 'index.html'), withoutScripts(html));
      names.push(name);
    } finally {
      await context.close();
    }
  }
  return names;
}
