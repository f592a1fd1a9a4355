import { form } from '../src/shared/form/form-model-data.ts';
import { fillTemplate } from '../src/shared/text/fill-template.ts';
import { fieldFacts } from './field-facts.ts';
import type { CheckProblem } from './check-problems.ts';
import { usePreview } from './preview-context.ts';
import { ruleTexts, visibilityWords } from './rule-words.ts';
import text from './preview-text.json';

const SHORT_LIST = 12;

export function ProblemItem({ problem }: { problem: CheckProblem }) {
  const where = `${problem.file}${problem.line ? `:${problem.line}` : ''}`;
  return (
    <li className={`preview-problem preview-problem-${problem.level}`} data-problem-kind={problem.kind}>
      <strong>{problem.level === 'error' ? text.problem_error : text.problem_warning}</strong> ({problem.kind}, {where}): {problem.message.replace(/\.\s*$/, '')}. {text.problem_fix} {problem.fix.replace(/\.\s*$/, '')}.
    </li>
  );
}

/** The banner of a conditional section, above the question that heads it. */
export function SectionRuleBanner({ fieldKey }: { fieldKey: string }) {
  const { page, sectionsAt, tabsAt } = usePreview();
  const sections = sectionsAt.get(fieldKey);
  const tab = tabsAt.get(fieldKey);
  if (!sections && !tab) return null;
  return (
    <>
      {tab && (
        <div className="preview-conditional" data-preview-tab={tab.title}>
          <strong>{fillTemplate(text.tab, { title: tab.title })}</strong> {tab.chosenFirst ? text.tab_first : text.tab_other}
        </div>
      )}
      {sections?.map((section) => {
        const rule = visibilityWords(form, page.visibility[section.index]!.when);
        return (
          <div key={section.id} className={`preview-conditional${rule.never ? ' preview-rule-never' : ''}`} data-preview-rule={section.id} data-preview-rule-never={rule.never || undefined}>
            <strong>{ruleTexts().conditional_section}:</strong> {rule.words}.{' '}
            <span className="preview-covers">{fillTemplate(text.covers, { keys: section.keys.join(', ') })}</span>
          </div>
        );
      })}
    </>
  );
}

/** Beside a question: what the schema files say of it, and check:schemas' problems with it. */
export function FieldNotes({ fieldKey, maxLength }: { fieldKey: string; maxLength?: number }) {
  const { page, messages, problems } = usePreview();
  const facts = fieldFacts(form, page, messages, fieldKey, maxLength);
  const own = problems.filter((problem) => problem.key === fieldKey);
  const problemList = own.length > 0 && (
    <ul className="preview-problems" aria-label={fillTemplate(text.problems_title, { count: own.length })}>
      {own.map((problem, index) => <ProblemItem key={index} problem={problem} />)}
    </ul>
  );
  // a question the data model does not know yet: its problem is all there is to say
  if (!facts) return <div className="preview-notes" data-preview-notes={fieldKey}>{problemList}<code>{fieldKey}</code></div>;
  const required = facts.required === null ? text.required_never : facts.required === '' ? text.required_always : facts.required;
  return (
    <div className="preview-notes" data-preview-notes={fieldKey}>
      {problemList}
      <dl className="preview-facts">
        <div><dt>{text.key}</dt><dd><code>{facts.key}</code></dd></div>
        <div><dt>{text.type}</dt><dd>{facts.type}</dd></div>
        <div><dt>{text.required}</dt><dd data-preview-required>{required}</dd></div>
        {facts.maxLength !== undefined && <div><dt>{text.max_length}</dt><dd>{facts.maxLength}</dd></div>}
        {facts.shownWhen.map((rule, index) => (
          <div key={index}><dt>{ruleTexts().conditional_section}</dt><dd data-preview-shown-when data-preview-rule-never={rule.never || undefined}>{rule.words}</dd></div>
        ))}
        {facts.years && <div><dt>{text.years_label}</dt><dd>{fillTemplate(text.years, facts.years)}</dd></div>}
      </dl>
      {facts.messages.length > 0 && (
        <div className="preview-messages">
          <span className="preview-label">{text.messages}</span>
          <ul>{facts.messages.map((message) => <li key={message}>{message}</li>)}</ul>
        </div>
      )}
      {facts.options && (
        <details className="preview-options" open={facts.options.length <= SHORT_LIST}>
          <summary>
            {fillTemplate(text.options, { count: facts.options.length })}
            {facts.narrowedBy && <> · {fillTemplate(text.options_narrowed, { controller: facts.narrowedBy })}</>}
          </summary>
          <ul>{facts.options.map((option) => <li key={option.value}><code>{option.value}</code> {option.label}</li>)}</ul>
        </details>
      )}
    </div>
  );
}
