import { createRequire } from 'node:module';
import type { CsvFile } from './csv-lines.ts';

interface ZipCode {
  zip: string;
  city: string;
  state: string;
}

/**
 * The US ZIP codes of the `zipcodes` package (BSD, offline) as if read from a CSV with the
 * columns zip, city, state, country. Only its US table: the package also has Canada.
 */
export function zipcodeLines(): CsvFile {
  const require = createRequire(import.meta.url);
  const { codes } = require('zipcodes/lib/codes.js') as { codes: Record<string, ZipCode> };
  const lines = Object.values(codes).map((code, index) => ({
    line: index + 1,
    fields: { zip: code.zip, city: code.city, state: code.state, country: 'US' },
  }));
  return { header: ['zip', 'city', 'state', 'country'], lines };
}
