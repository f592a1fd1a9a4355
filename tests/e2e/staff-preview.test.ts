/**
 * The staff preview (`npm run preview`) on a copy of the project, as staff use it while
 * editing schemas/: every conditional section and every tab of every page is there and
 * labelled (a conditional section with the rule that shows it), the sample switch shows the pages as that applicant sees them,
 * a check:schemas problem appears beside the question it concerns, a saved edit
 * shows without a manual reload, a rule that can never be true is marked as such (not a
 * blank page), the pages and their rules show in Spanish when staff choose it, and the
 * application file's items show with who provides each and when it is required.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../../support/browser.ts';
import { until } from '../../support/until.ts';
import type { FormModel } from '../../src/shared/form/form-model.ts';
import { axeViolations } from '../helpers/axe.ts';
import { copyProject, type ProjectCopy } from '../helpers/project-copy.ts';
import { closeContexts, workerBrowser } from '../helpers/worker-browser.ts';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    }).on('error', reject);
  });
}

/** Starts `npm run preview` in the copy and resolves with its address once it prints it. */
async function startPreview(copy: ProjectCopy): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/preview.ts'], { cwd: copy.dir, env: copy.environment({ PORT: String(port) }), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = await until(async () => {
    if (child.exitCode !== null) throw new Error(`npm run preview ended:\n${output}`);
    return /Staff preview: (\S+)/.exec(output)?.[1];
  }, 'the preview server to print its address', 180_000);
  return { url, child, output: () => output };
}

describe('the staff preview', () => {
  let copy: ProjectCopy;
  let preview: Awaited<ReturnType<typeof startPreview>>;
  let browser: Browser;
  let model: FormModel;
  /**
   * One page for the file, navigated to each view: the preview is read-only, and a page that
   * has loaded the development server's hundreds of modules loads them again from its
   * renderer's caches, where a fresh context compiles them all anew.
   */
  let page: Page;

  beforeAll(async () => {
    copy = copyProject();
    preview = await startPreview(copy);
    model = JSON.parse(readFileSync(join(copy.dir, 'src', 'shared', 'generated', 'form-model.json'), 'utf8'));
    browser = await workerBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    ({ page } = await openPage(context));
    page.setDefaultTimeout(120_000); // the first visit has the dev server bundle the packages
  }, 300_000);

  afterAll(async () => {
    await closeContexts(browser);
    preview?.child.kill('SIGTERM');
    copy?.remove();
  });

  /**
   * Opens a view. The preview reloads its page after a saved schema file, and a reload may
   * land on this navigation (aborting it, or replacing the page it waits on): it is opened
   * again until the page is at its address, then waited on until it shows. A page still
   * loading is let finish first.
   */
  async function open(query: string): Promise<Page> {
    const url = `${preview.url}?${query}`;
    await page.waitForLoadState('load');
    await until(async () => {
      try {
        await page.goto(url, { waitUntil: 'commit' });
      } catch (error) {
        if (!/ERR_ABORTED|interrupted by another navigation/.test(String(error))) throw error;
        return undefined;
      }
      return page.url() === url || undefined;
    }, `the preview to open ${query}`, 120_000);
    await page.locator('[data-preview-key]').first().waitFor();
    return page;
  }

  it('shows every conditional section of every page, labelled with the rule in the schema labels', async () => {
    for (const id of model.pageOrder) {
      await open(`page=${id}`);
      const pageModel = model.pages[id];
      // later add-another instances repeat the first instance's rules, and the preview draws the first
      const later = new Set(pageModel.repeaters.flatMap((repeater) => repeater.instances.slice(1).flat()));
      const expected = pageModel.visibility.map((rule, index) => ({ rule, id: `${id}/${index}` })).filter(({ rule }) => !rule.keys.every((key) => later.has(key)));
      await expect.poll(() => page.locator('[data-preview-rule]').count()).toBe(expected.length);
      // every banner's words in one look
      const banners = await page.evaluate(() => Object.fromEntries(
        [...document.querySelectorAll<HTMLElement>('[data-preview-rule]')].map((banner) => [banner.dataset.previewRule, banner.checkVisibility() ? banner.innerText : '(hidden)']),
      ));
      for (const { rule, id: ruleId } of expected) {
        const words = banners[ruleId] ?? '(missing)';
        expect(words, ruleId).toMatch(/Shown when/);
        const conditionKeys = JSON.stringify(rule.when).match(/"key":"([^"]+)"/g)!.map((item) => item.slice(7, -1));
        for (const key of conditionKeys) expect(words, ruleId).toContain(model.fields[key]!.title);
        for (const key of rule.keys.filter((item) => !later.has(item))) expect(words, ruleId).toContain(key);
      }
      // every tab is drawn, labelled, where the page shows one at a time
      const tabs = pageModel.tabs.flatMap((group) => group.tabs);
      expect(await page.locator('[data-preview-tab]').count()).toBe(tabs.length);
      for (const tab of tabs) expect(await page.locator(`[data-preview-key~="${tab.keys[0]}"]`).count(), tab.id).toBe(1);
      // every question drawn carries its key, type and required rule
      const first = pageModel.sections[0]!.keys[0]!;
      const notes = page.locator(`[data-preview-notes="${first}"]`);
      await notes.scrollIntoViewIfNeeded();
      await expect.poll(() => notes.innerText()).toContain(model.fields[first]!.type);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `staff-preview-${id}`);
    }
  }, 300_000);

  it('shows the pages as each sample applicant would see them', async () => {
    await open('page=about');
    const citizenship = page.locator('[data-preview-key="citizenship"]');
    await citizenship.waitFor();
    const sample = page.getByLabel('Show the pages as');
    await sample.selectOption({ label: 'US applicant' });
    await citizenship.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('#first_name').inputValue()).toBe('Ada');
    await sample.selectOption({ label: 'International applicant' });
    await citizenship.waitFor();
    await expect.poll(() => page.locator('#citizenship').inputValue()).toBe('GBR');
    await screenshot(page, 'staff-preview-international');
    await page.goto(`${preview.url}?page=education-ug&sample=transfer`);
    await page.locator('[data-preview-key="college_name"]').waitFor();
    await expect.poll(() => page.locator('#college_name').inputValue()).toBe('Springfield Community College');
    await page.goto(`${preview.url}?page=education-ug&sample=home-schooled`);
    await page.locator('[data-preview-key="home_schooled"]').waitFor();
    await expect.poll(() => page.locator('[data-preview-key="hs_name"]').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  }, 300_000);

  it('shows a saved edit, and a check:schemas problem beside its question, without a reload by hand', async () => {
    await open('page=about');
    copy.editJson('pages/about.schema.json', (schema) => {
      schema.properties.personal.properties.first_name.title = 'Legal Given Name';
    });
    await expect.poll(() => page.locator('label[for="first_name"]').innerText(), { timeout: 120_000 }).toMatch(/^Legal Given Name/);

    // a question added without its data-model entry: built and drawn, and the check says why it is wrong
    copy.editJson('pages/about.schema.json', (schema) => {
      schema.properties.personal.properties.nickname = { title: 'Nickname', type: 'string', maxLength: 30 };
    });
    const notes = page.locator('[data-preview-notes="nickname"] .preview-problem');
    await notes.waitFor().catch((error: Error) => { throw new Error(`${error.message}\nThe preview server printed:\n${preview.output()}`); });
    expect(await notes.innerText()).toContain('not in the data model');
    expect(await notes.innerText()).toContain('schemas/pages/about.schema.json');
    await page.locator('[data-preview-key="nickname"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'staff-preview-problem', { fullPage: false });
    expect(await axeViolations(page)).toEqual([]);
  }, 300_000);

  it('marks a rule that can never be true, and still draws the page', async () => {
    const original = readFileSync(join(copy.dir, 'schemas', 'pages', 'about.ui.json'), 'utf8');
    await open('page=about');
    // the label written for the code "N", and a misspelt operator: each passed every check before
    copy.editJson('pages/about.ui.json', (ui) => {
      ui.mailing.mailing_addr_effective_date['ui:hideWhen'].value = 'No';
      ui.military.military_branch['ui:hideWhen'].any[1].op = 'notEqual';
    });
    const never = page.locator('[data-preview-rule][data-preview-rule-never]');
    await expect.poll(() => never.count(), { timeout: 120_000 }).toBe(2);
    const words = await never.allInnerTexts();
    expect(words.find((line) => line.includes('Never shown'))).toMatch(/"No" is no answer “Is your mailing address the same as your permanent address\?” can have \("Y", "N"\)/);
    expect(words.find((line) => line.includes('Cannot work as written'))).toContain('“notEqual” is no operator the form knows');
    await page.locator('[data-preview-rule][data-preview-rule-never]').first().scrollIntoViewIfNeeded();
    await screenshot(page, 'staff-preview-rule-never', { fullPage: false });
    expect(await axeViolations(page)).toEqual([]);
    // the preview reloads with the restored rules: the next test navigates only once that new
    // page has drawn them. A count of none is also true of the blank page a reload starts with,
    // and a navigation to the page's own address while it reloaded was seen to wait past two
    // minutes, with the server answering and the page complete.
    await page.evaluate(() => Object.assign(window, { beforeRestore: true }));
    writeFileSync(join(copy.dir, 'schemas', 'pages', 'about.ui.json'), original);
    await expect.poll(() => page.evaluate(() => !('beforeRestore' in window)
      && document.readyState === 'complete'
      && document.querySelector('[data-preview-key]') !== null
      && document.querySelector('[data-preview-rule-never]') === null).catch(() => false), { timeout: 120_000 }).toBe(true);
  }, 300_000);

  it('lists the application file\'s items with who provides each and when it is required, in both languages', async () => {
    await open('page=about');
    const items = page.getByRole('region', { name: 'Application file items' });
    await items.getByRole('heading', { level: 3, name: 'Official test scores' }).waitFor();
    const scores = items.locator('[data-preview-file-item="test-scores"]');
    expect(await scores.locator('[data-preview-required]').innerText()).toBe('when Do you want your test scores considered for admission? is Yes');
    expect(await scores.innerText()).toContain('the applicant, by upload; the office, by its API, command or CSV');
    expect(await items.locator('[data-preview-file-item="transcript"] [data-preview-required]').innerText()).toBe('always');
    expect(await items.locator('[data-preview-file-item="counselor-recommendation"] [data-preview-required]').innerText()).toBe('no');
    await items.scrollIntoViewIfNeeded();
    await screenshot(page, 'staff-preview-file-items', { fullPage: false });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Texts in').selectOption({ label: 'Español' });
    const spanish = page.getByRole('region', { name: 'Documentos del expediente' });
    await spanish.getByRole('heading', { level: 3, name: 'Resultados oficiales de exámenes' }).waitFor({ timeout: 120_000 });
    expect(await spanish.locator('[data-preview-file-item="test-scores"] [data-preview-required]').innerText()).toMatch(/^cuando .+ es Sí$/);
    expect(await spanish.locator('[data-preview-file-item="transcript"]').innerText()).toContain('el orientador escolar, mediante un enlace que pide el solicitante');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Texts in').selectOption({ label: 'English' });
    await page.getByRole('heading', { level: 1, name: 'About You' }).waitFor({ timeout: 120_000 });
  }, 300_000);

  it('draws the pages and says their rules in Spanish when staff choose it, and in English again', async () => {
    await open('page=about');
    const choice = page.getByLabel('Texts in');
    await choice.selectOption({ label: 'Español' });
    await page.getByRole('heading', { level: 1, name: 'Sobre usted' }).waitFor({ timeout: 120_000 });
    await page.locator('[data-preview-key]').first().waitFor();
    const rule = page.locator('[data-preview-rule="about/0"]');
    await rule.waitFor();
    expect(await rule.innerText()).toMatch(/^Sección condicional: Se muestra cuando /);
    expect(await page.locator('label[for="first_name"]').innerText()).toContain('Nombre legal');
    await screenshot(page, 'staff-preview-spanish', { fullPage: false });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Texts in').selectOption({ label: 'English' });
    await page.getByRole('heading', { level: 1, name: 'About You' }).waitFor({ timeout: 120_000 });
  }, 300_000);
});
