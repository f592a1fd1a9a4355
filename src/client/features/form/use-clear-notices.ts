import { useEffect, useState } from 'react';
import { isAnswered } from '../../../shared/answers/conditions.ts';
import { form } from '../../../shared/form/form-model-data.ts';
import { useApplicationSession } from '../../session/session-hooks.ts';

const noticeRules = form.pageOrder.flatMap((id) => form.pages[id].optionRules).filter((rule) => rule.notice);

/**
 * The notices of answers cleared elsewhere by a change in this section (schemas: the
 * `notice` of a ui:optionsWhen): changing the I-20 answer on About You says that the
 * intended major on Your Education was cleared, instead of leaving it to be found empty.
 */
export function useClearNotices(sectionKeys: readonly string[]): string[] {
  const { answers } = useApplicationSession();
  const [notices, setNotices] = useState<string[]>([]);
  useEffect(() => {
    const rules = noticeRules.filter((rule) => sectionKeys.includes(rule.controller));
    if (!rules.length) return;
    let before = answers.get();
    return answers.subscribe(({ changed, source }) => {
      const previous = before;
      before = answers.get();
      if (source !== 'change') return;
      const cleared = rules.filter((rule) => rule.controller in changed && changed[rule.key] === '' && isAnswered(previous[rule.key]));
      if (cleared.length) setNotices([...new Set(cleared.map((rule) => rule.notice!))]);
    });
  }, [answers, sectionKeys]);
  return notices;
}
