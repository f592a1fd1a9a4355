import type { Ajv, KeywordCxt } from 'ajv';
import { _, getProperty } from 'ajv/dist/compile/codegen/index.js';
import * as runtime from './keyword-runtime.ts';

/**
 * Our schema keywords, defined as code generators so that ajv can compile them ahead of
 * time: the generated code calls keyword-runtime.ts, which the generator imports by name.
 *
 * - when:          an answers object satisfies a condition (used in if/then)
 * - x-date:        a real date, YYYY-MM-DD
 * - x-date-min/max: a date window computed from today (message may say {year})
 * - x-year-range:  a year from a year list, or one step beyond its ends
 */
export const RUNTIME_MODULE = 'app:keyword-runtime';

function runtimeFunction(cxt: KeywordCxt, name: keyof typeof runtime) {
  return cxt.gen.scopeValue('func', { ref: runtime[name], code: _`require(${RUNTIME_MODULE})${getProperty(name)}` });
}

export function addKeywords(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: 'when',
    schemaType: 'object',
    code(cxt) {
      const evaluate = runtimeFunction(cxt, 'evaluateCondition');
      cxt.fail(_`!${evaluate}(${cxt.data}, ${cxt.schemaValue})`);
    },
  });
  ajv.addKeyword({
    keyword: 'x-date',
    type: 'string',
    schemaType: 'boolean',
    code(cxt) {
      const check = runtimeFunction(cxt, 'isCalendarDate');
      cxt.fail(_`!${check}(${cxt.data})`);
    },
  });
  for (const [keyword, name] of [['x-date-min', 'dateNotBefore'], ['x-date-max', 'dateNotAfter']] as const) {
    ajv.addKeyword({
      keyword,
      type: 'string',
      schemaType: 'object',
      error: { message: 'date outside the supported window', params: ({ params }) => _`{year: ${params.year}}` },
      code(cxt) {
        const check = runtimeFunction(cxt, name);
        const bound = runtimeFunction(cxt, 'dateBound');
        cxt.setParams({ year: _`${bound}(${cxt.schemaValue}).year` });
        cxt.fail(_`!${check}(${cxt.data}, ${cxt.schemaValue})`);
      },
    });
  }
  ajv.addKeyword({
    keyword: 'x-year-range',
    type: 'string',
    schemaType: 'object',
    code(cxt) {
      const check = runtimeFunction(cxt, 'yearInRange');
      cxt.fail(_`!${check}(${cxt.data}, ${cxt.schemaValue})`);
    },
  });
}
