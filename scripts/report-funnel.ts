/**
 * `npm run report:funnel -- --out report.html [--format html|json] [--with-names] [--idle-days 7] [--at <time>]`:
 * the admissions office's one page on where applicants stop (src/server/report/): applicants
 * at each step per week of the cycle and in all, the questions that hold them up, the last
 * page of those who stopped, and what followed each reminder. `--format json` writes the same
 * figures. Nobody is named unless --with-names. Uses DATABASE_URL, or the embedded database
 * (through the server when one runs on DATA_DIR: lib/data-access.ts); the figures are
 * aggregates, read in a few statements, and the names a page at a time, so memory does not
 * follow the number of applicants.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import frame from '../schemas/text/frame.json';
import reportText from '../schemas/text/funnel-report.json';
import { nameRow, namesEnd, namesStart, reportEnd, reportHead } from '../src/server/report/funnel-html.ts';
import { keepFilesPrivate } from '../src/server/lib/private-files.ts';
import { openDataAccess } from './lib/data-access.ts';

keepFilesPrivate();

const USAGE = 'usage: npm run report:funnel -- --out <file> [--format html|json] [--with-names] [--idle-days 7] [--at <ISO time>]';
const { values } = parseArgs({
  options: {
    out: { type: 'string' }, format: { type: 'string', default: 'html' }, 'with-names': { type: 'boolean', default: false },
    'idle-days': { type: 'string', default: '7' }, at: { type: 'string' },
  },
});
const at = values.at === undefined ? new Date() : new Date(values.at);
const idleDays = Number(values['idle-days']);
if (!values.out || !['html', 'json'].includes(values.format!) || Number.isNaN(at.getTime()) || !Number.isInteger(idleDays) || idleDays < 1) {
  console.error(USAGE);
  process.exit(1);
}
const out = resolve(values.out);
const PAGE = 2000;
const pageLabel = (page: string | null) => frame.steps.find((step) => step.path === page)?.label ?? reportText.no_page;

const started = performance.now();
const data = await openDataAccess('npm run report:funnel');
// written aside and renamed when whole: a reader never opens half a report
const partial = `${out}.partial`;
const file = createWriteStream(partial, { mode: 0o600 });
const write = async (text: string) => {
  if (!file.write(text)) await once(file, 'drain');
};
try {
  const figures = await data.call('report.funnel', { at: at.toISOString(), idleDays });
  const withNames = values['with-names'];
  if (values.format === 'json') {
    await write(`${JSON.stringify(figures, null, 2).replace(/\n}$/, '')}${withNames ? ',\n  "stopped_applicants": [' : ''}`);
  } else {
    await write(reportHead(figures, { withNames }));
    if (withNames) await write(namesStart());
  }
  let named = 0;
  if (withNames) {
    let after: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof data.call<'report.stopped'>>> = await data.call('report.stopped', { at: at.toISOString(), idleDays, limit: PAGE, ...(after ? { after } : {}) });
      for (const row of page.rows) {
        await write(values.format === 'json' ? `${named ? ',' : ''}\n    ${JSON.stringify(row)}` : nameRow(row, pageLabel));
        named++;
      }
      after = page.next;
    } while (after);
  }
  if (values.format === 'json') await write(`${withNames ? '\n  ]' : ''}\n}\n`);
  else {
    if (withNames) await write(namesEnd());
    await write(reportEnd());
  }
  file.end();
  await once(file, 'finish');
  await rename(partial, out);
  const total = figures.total.counts;
  const step = (id: string) => total[figures.steps.findIndex((entry) => entry.id === id)];
  console.log(`Funnel report in ${out}: ${total[0]} started, ${step('submitted')} submitted, ${step('file_complete')} with a complete file${withNames ? `, ${named} named` : ''} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
} finally {
  await data.close();
}
