import { describe, expect, it } from 'vitest';
import { form } from '../../src/shared/form/form-model-data.ts';

/**
 * The browser build leaves out the parts of RJSF our form never runs (vite.config.ts
 * standIns): the array, oneOf/anyOf and layout-grid fields and the allOf merger.
 * That holds only while no block schema of the form model needs them.
 */

const UNUSED = ['allOf', 'oneOf', 'anyOf', 'items', 'additionalItems', 'ui:layoutGrid'];

function keysIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => keysIn(item, found));
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      found.add(key);
      keysIn(item, found);
    }
  }
  return found;
}

describe('the form model needs none of the RJSF parts the build leaves out', () => {
  it('has no array type, no allOf/oneOf/anyOf and no layout grid in any page', () => {
    for (const page of form.pageOrder) {
      const model = form.pages[page];
      expect([...keysIn(model)].filter((key) => UNUSED.includes(key)), page).toEqual([]);
      expect(JSON.stringify(model), page).not.toMatch(/"type":\s*"array"/);
    }
  });
});
