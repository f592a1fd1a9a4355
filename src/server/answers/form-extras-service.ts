import type { RemoveAnotherBody, RemoveAnotherReply, SaveAddAnotherBody, SaveTabBody } from '../../shared/generated/api-types.ts';
import type { Kysely, Transaction } from 'kysely';
import apiMessages from '../../../schemas/text/api-messages.json';
import { descKey } from '../../shared/answers/key-naming.ts';
import { form } from '../../shared/form/form-model-data.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { storedAnswersOf, writeStampedAnswers, type StoredValue } from '../db/repositories/answer-repository.ts';
import { addAnotherCountOf, addAnotherOf, chosenTabOf, saveAddAnother, saveTab, tabsOf } from '../db/repositories/form-extras-repository.ts';
import type { Database } from '../db/tables.ts';
import { HttpError } from '../lib/http-error.ts';
import { unlessSubmitted } from './lifecycle-service.ts';

interface Repeater {
  max: number;
  /** each instance's answer keys, with the `_desc` label of each key that has one */
  instances: string[][];
}

const withLabels = (keys: string[]) => keys.flatMap((key) => (form.fields[key]?.options || form.fields[key]?.years ? [key, descKey(key)] : [key]));
const repeaters = new Map<string, Repeater>(form.pageOrder.flatMap((id) => form.pages[id].repeaters)
  .map((repeater) => [repeater.button_id, { max: repeater.max, instances: repeater.instances.map(withLabels) }]));
const tabGroups = new Map(form.pageOrder.flatMap((id) => form.pages[id].tabs).map((group) => [group.tab_id, { tabs: group.tabs.map((tab) => tab.id), byDefault: group.default_tab }]));
const versionOf = (key: string) => form.pages[form.fields[key.replace(/_desc$/, '')]?.page ?? form.pageOrder[0]!].version;

function repeaterOf(buttonId: string): Repeater {
  const repeater = repeaters.get(buttonId);
  if (!repeater) throw new HttpError(400, fillTemplate(apiMessages.unknown_button, { id: buttonId }), { code: 'UNKNOWN_BUTTON' });
  return repeater;
}

const staleCount = (stored: number) => new HttpError(409, apiMessages.stale_count, { code: 'STALE_COUNT', current: { num_components: stored } });

/** The highest instance (from 1) with an answer stored, 0 for none. */
async function highestAnswered(tx: Transaction<Database>, applicantId: string, repeater: Repeater): Promise<number> {
  const stored = await storedAnswersOf(tx, applicantId, repeater.instances.flat());
  const holds = (keys: string[]) => keys.some((key) => {
    const value = stored.get(key)?.value;
    return value !== undefined && value !== null && value !== '' && value !== false;
  });
  for (let at = repeater.instances.length - 1; at >= 0; at--) if (holds(repeater.instances[at]!)) return at + 1;
  return 0;
}

/**
 * Add-another counts and tab choices (spec section 7): checked against the form model, locked
 * after submission like answers, and done on what the page saw. A count or a tab the page
 * did not show is refused (STALE_COUNT, STALE_TAB) with what is stored, never written over;
 * a count never drops below an instance that holds answers; removing an item moves the
 * stored answers after it up, on the server, in one transaction.
 */
export function createFormExtrasService(db: Kysely<Database>) {
  return {
    addAnother: (applicantId: string) => addAnotherOf(db, applicantId),
    tabs: (applicantId: string) => tabsOf(db, applicantId),

    async saveAddAnother(applicantId: string, body: SaveAddAnotherBody): Promise<{ button_id: string; num_components: number }> {
      const { button_id: buttonId, num_components: count, seen_components: seen } = body;
      const repeater = repeaterOf(buttonId);
      if (count < 1 || count > repeater.max) {
        throw new HttpError(400, fillTemplate(apiMessages.bad_count, { id: buttonId, max: repeater.max }), { code: 'BAD_COUNT' });
      }
      await unlessSubmitted(db, applicantId, async (tx) => {
        const stored = await addAnotherCountOf(tx, applicantId, buttonId);
        if (seen !== undefined && seen !== stored) throw staleCount(stored);
        if (count < stored) {
          const highest = await highestAnswered(tx, applicantId, repeater);
          if (count < highest) {
            throw new HttpError(409, fillTemplate(apiMessages.instances_hold_answers, { id: buttonId, count }), { code: 'INSTANCES_HOLD_ANSWERS', current: { num_components: stored } });
          }
        }
        await saveAddAnother(tx, applicantId, buttonId, count);
      });
      return { button_id: buttonId, num_components: count };
    },

    async removeAnother(applicantId: string, body: RemoveAnotherBody): Promise<RemoveAnotherReply> {
      const { button_id: buttonId, instance, seen_components: seen } = body;
      const repeater = repeaterOf(buttonId);
      let reply: RemoveAnotherReply | undefined;
      await unlessSubmitted(db, applicantId, async (tx) => {
        const count = await addAnotherCountOf(tx, applicantId, buttonId);
        if (seen !== count) throw staleCount(count);
        if (count < 2 || instance > count) {
          throw new HttpError(400, fillTemplate(apiMessages.bad_count, { id: buttonId, max: repeater.max }), { code: 'BAD_COUNT' });
        }
        const moved = repeater.instances.slice(instance - 1, count);
        const stored = await storedAnswersOf(tx, applicantId, moved.flat());
        const values: Record<string, StoredValue> = {};
        moved.forEach((keys, at) => keys.forEach((key, position) => {
          const from = moved[at + 1]?.[position];
          values[key] = (from === undefined ? null : stored.get(from)?.value) ?? '';
        }));
        // later than every change it replaces; a page that then changes one of these keys stamps past it (save-queue.ts)
        const newest = Math.max(0, ...[...stored.values()].map((entry) => entry.changedAt));
        const stamp = Math.max(Date.now(), newest + 1);
        await writeStampedAnswers(tx, applicantId, values, Object.fromEntries(Object.keys(values).map((key) => [key, versionOf(key)])), stamp);
        await saveAddAnother(tx, applicantId, buttonId, count - 1);
        reply = {
          button_id: buttonId, num_components: count - 1, answer: values,
          answer_clock: Object.fromEntries(Object.keys(values).map((key) => [key, stamp])),
        };
      });
      return reply!;
    },

    async saveTab(applicantId: string, body: SaveTabBody): Promise<{ tab_id: string; chosen_tab: string }> {
      const { tab_id: tabId, chosen_tab: chosen, seen_tab: seen } = body;
      const group = tabGroups.get(tabId);
      if (!group?.tabs.includes(chosen)) {
        throw new HttpError(400, fillTemplate(apiMessages.unknown_tab, { id: tabId, tab: chosen }), { code: 'UNKNOWN_TAB' });
      }
      await unlessSubmitted(db, applicantId, async (tx) => {
        const stored = (await chosenTabOf(tx, applicantId, tabId)) ?? group.byDefault;
        if (seen !== undefined && seen !== stored && stored !== chosen) {
          throw new HttpError(409, apiMessages.stale_tab, { code: 'STALE_TAB', current: { chosen_tab: stored } });
        }
        await saveTab(tx, applicantId, tabId, chosen);
      });
      return { tab_id: tabId, chosen_tab: chosen };
    },
  };
}

export type FormExtrasService = ReturnType<typeof createFormExtrasService>;
