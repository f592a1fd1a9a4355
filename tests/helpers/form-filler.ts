import type { Page } from 'playwright-core';

/** Fills answers through the page as an applicant would: by label, choice or box. */
export async function fillAnswers(page: Page, answers: Record<string, string | boolean>): Promise<void> {
  for (const [key, value] of Object.entries(answers)) {
    // a month/year pair is one question: its container carries the month's key
    const container = page.locator(`[data-field-key="${key}"], [data-field-key]:has(#${key})`).first();
    await container.waitFor();
    const isRadioGroup = (await container.locator('input[type="radio"]').count()) > 0;
    if (isRadioGroup && typeof value === 'string') {
      await container.locator('label.bp6-control', { hasText: new RegExp(`^${escape(value)}$`) }).click();
    } else if (typeof value === 'boolean') {
      const box = page.locator(`#${key}`);
      if ((await box.isChecked()) !== value) await page.locator(`label:has(#${key})`).click();
    } else {
      const input = page.locator(`#${key}`);
      const kind = await input.evaluate((element) => element.tagName.toLowerCase());
      if (kind === 'select') await input.selectOption(value);
      else await input.fill(value);
    }
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
