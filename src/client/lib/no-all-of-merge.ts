/**
 * Stands in for @rjsf/utils' allOf merger (vite.config.ts `standIns`), 5 KB gzip of
 * @x0k/json-schema-merge that RJSF calls only for a schema with `allOf`. Our block schemas
 * have none (tests/unit/form-model-shape.test.ts); if one ever appears, it says so.
 */
export default function shallowAllOfMerge(): never {
  throw new Error('An allOf in a form block: the build leaves out RJSF\'s allOf merger (vite.config.ts standIns)');
}
