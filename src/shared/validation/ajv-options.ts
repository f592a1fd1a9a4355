import type { Options } from 'ajv';

/**
 * The one ajv configuration. Validators are compiled ahead of time with these options
 * (scripts/generate.ts), so the browser and the server run the same code and the app
 * needs no `unsafe-eval` in its Content-Security-Policy.
 */
export const ajvOptions: Options = {
  allErrors: true, // ajv-errors needs every error
  strict: false, // schemas carry our own annotation keywords (ui hints, versions)
  $data: true, // "passwords must match" compares two fields
  unicodeRegExp: true,
  code: { source: true, esm: true, lines: false },
};
