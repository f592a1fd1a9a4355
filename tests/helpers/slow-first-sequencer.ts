import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files in the order that finishes soonest on two workers: one lane after another
 * (end-to-end, server, unit), and within a lane the longest first (as measured in a quiet
 * full run on this machine kind, docs/testing.md), then the rest, longest-known first.
 * Vitest's own order needs a cache of earlier runs, which a fresh clone does not have.
 *
 * A lane's files are kept together because a worker whose files share one module cache
 * (`isolate: false`) is kept for the next file only when that file is of the same lane: one
 * of another lane ends the worker, and the next starts afresh, loading the server's modules
 * and launching Chromium again (about 5 s a switch on a quiet machine; a full run with the
 * lanes interleaved spent 117 s importing modules, against 42 s with them kept together).
 */
const SLOWEST_FIRST = [
  'tests/e2e/a11y-routes.test.ts',
  'tests/e2e/staff-preview.test.ts',
  // Orca reading About You by Say All and by Tab, and two interactions (about 80 s)
  'tests/e2e/a11y-screen-reader.test.ts',
  'tests/server/faults-libreoffice.test.ts',
  'tests/e2e/a11y-focus-and-announcements.test.ts',
  'tests/e2e/a11y-hidden-answers.test.ts',
  'tests/e2e/lifecycle.test.ts',
  'tests/e2e/html-floor.test.ts',
  'tests/e2e/a11y-keyboard.test.ts',
  'tests/server/schema-impact.test.ts',
  'tests/e2e/lookup.test.ts',
  'tests/e2e/form-rules.test.ts',
  'tests/e2e/documents.test.ts',
  'tests/e2e/a11y-reflow.test.ts',
  'tests/e2e/entries-kept.test.ts',
  'tests/server/attack-converters.test.ts',
  'tests/e2e/spanish-journey.test.ts',
  'tests/e2e/a11y-names-and-reading-order.test.ts',
  'tests/server/documents.test.ts',
  'tests/server/attack-embedded.test.ts',
  'tests/e2e/spanish-frame.test.ts',
  'tests/server/attack-files.test.ts',
  'tests/server/attack-converter-share.test.ts',
  'tests/e2e/typing-dates-phones-and-choices.test.ts',
  'tests/e2e/stumbles-more.test.ts',
  'tests/server/data-commands-beside-server.test.ts',
  'tests/e2e/keyboard-journey.test.ts',
  'tests/server/faults-restart.test.ts',
  'tests/e2e/visitor-routes-and-completion.test.ts',
  'tests/e2e/accounts.test.ts',
  'tests/e2e/attack-xss.test.ts',
  'tests/server/webhooks.test.ts',
  'tests/server/attack-limits.test.ts',
  'tests/e2e/inactivity.test.ts',
  'tests/server/attack-guessing.test.ts',
  'tests/e2e/page-from-schemas.test.ts',
  'tests/server/export.test.ts',
  'tests/e2e/frame.test.ts',
  'tests/e2e/form-pages.test.ts',
  'tests/server/lookups.test.ts',
  'tests/server/attack-access.test.ts',
  'tests/e2e/a11y-focus-kept.test.ts',
  'tests/e2e/journey.test.ts',
  'tests/e2e/quick-start.test.ts',
  'tests/server/attack-connections.test.ts',
  'tests/e2e/errors-and-toasts.test.ts',
  'tests/e2e/inactivity-session-end.test.ts',
  'tests/server/attack-headers.test.ts',
  'tests/e2e/first-visit.test.ts',
  'tests/e2e/faults-mail.test.ts',
  'tests/e2e/a11y-screen-reader-noise.test.ts',
  'tests/server/attack-input.test.ts',
  'tests/server/schema-impact-previous.test.ts',
  'tests/server/accounts.test.ts',
];

/** The lanes (Vitest projects) in the order they run; unit files, short and many, fill the end. */
const LANE_ORDER = ['e2e', 'server', 'unit'];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const lane = (file: TestSpecification) => {
      const index = LANE_ORDER.indexOf(file.project.name);
      return index === -1 ? LANE_ORDER.length : index;
    };
    const rank = (file: TestSpecification) => {
      const index = SLOWEST_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return index === -1 ? SLOWEST_FIRST.length : index;
    };
    const known = await super.sort(files);
    return [...known].sort((a, b) => lane(a) - lane(b) || rank(a) - rank(b));
  }
}
