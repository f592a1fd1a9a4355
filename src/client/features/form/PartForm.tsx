import Form from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import { memo, useCallback, useMemo, useState } from 'react';
import type { Answers } from '../../../shared/answers/conditions.ts';
import { answersHiddenBy, ruleControllers } from '../../../shared/answers/hidden-answers.ts';
import { hiddenKeysOf } from '../../../shared/answers/visibility.ts';
import { form } from '../../../shared/form/form-model-data.ts';
import type { PageModel, PartBlock } from '../../../shared/form/form-model.ts';
import type { FieldErrors } from '../../../shared/validation/field-errors.ts';
import type { FormContext } from '../../form-theme/form-context.ts';
import { useAnswersSelector, useApplicationSession } from '../../session/session-hooks.ts';
import { checkAnswer, choicesNow, requiredNow } from './field-rules.ts';
import { flatData, nestedData, nestedErrors } from '../../form-theme/part-data.ts';
import { useFormRegistry } from './form-registry-context.ts';
import { useGuardedChange } from './HiddenAnswersGuard.tsx';
import { renderOnlyValidator } from './render-only-validator.ts';
import { ruleKeysOf } from './rule-keys.ts';

interface Props {
  page: PageModel;
  part: PartBlock;
  errors: FieldErrors;
  loggedIn: boolean;
  serviceView: boolean;
  /** keys hidden beyond an add-another count */
  extraHidden?: ReadonlySet<string>;
  onFieldBlur?: (key: string) => void;
}

const uiSubmit = { 'ui:submitButtonOptions': { norender: true } };
/** The answers whose value shows, hides or narrows other questions (ADR 012). */
const controllers = ruleControllers(form);
const defaultFormState = { emptyObjectFields: 'skipDefaults' as const, allOf: 'skipDefaults' as const };

interface Snapshot {
  answers: Answers;
  data: string;
  rules: string;
}

const sameSnapshot = (a: Snapshot, b: Snapshot) => a.data === b.data && a.rules === b.rules;

/**
 * One block of a page as one small RJSF form. It re-renders only when one of the answers
 * it shows or depends on changes, so typing stays fast on the largest page.
 */
export const PartForm = memo(function PartForm({ page, part, errors, loggedIn, serviceView, extraHidden, onFieldBlur }: Props) {
  const { edit, view } = useFormRegistry();
  const { answers: answersStore, uncommitted } = useApplicationSession();
  const registry = serviceView ? view : edit;
  // typing in a field changes only the part's data; the context every field sees changes only when a rule's answer does
  const dependsOn = useMemo(() => ruleKeysOf(page, part.keys), [page, part]);
  const keys = useMemo(() => [...new Set([...part.keys, ...dependsOn])], [part, dependsOn]);
  const snapshot = useAnswersSelector<Snapshot>(keys, (answers) => ({
    answers,
    data: JSON.stringify(part.keys.map((key) => answers[key] ?? '')),
    rules: JSON.stringify(dependsOn.map((key) => answers[key] ?? '')),
  }), sameSnapshot);
  // the answers the rules see, changed only when a rule's answer changes
  const ruleAnswers = useMemo(() => snapshot.answers, [snapshot.rules]); // eslint-disable-line react-hooks/exhaustive-deps -- keyed on the rule answers' values on purpose
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const guardedChange = useGuardedChange();
  // a new RJSF form when a change is refused: RJSF keeps its own copy of what was chosen
  const [revision, setRevision] = useState(0);

  const hidden = useMemo(() => {
    const set = new Set(hiddenKeysOf(page, ruleAnswers));
    extraHidden?.forEach((key) => set.add(key));
    return set;
  }, [page, ruleAnswers, extraHidden]);

  const formContext = useMemo<FormContext>(() => {
    const hidesAnswers = (key: string, value: string) => answersHiddenBy(form, answersStore.get(), { [key]: value }).length > 0;
    return {
      hidden, answers: ruleAnswers, loggedIn, serviceView, localErrors,
      // the theme asks the form model through these; answer keys are the DOM ids (/page#key)
      optionsFor: (key) => choicesNow(key, ruleAnswers),
      requiredNow: (key) => requiredNow(key, ruleAnswers),
      checkAnswer,
      idsAreKeys: true,
      holdWhilePassing: (key, value) => {
        if (!controllers.has(key)) return false;
        // a list passes many choices on the way to the one typed or arrowed to: none of them is an answer
        if (form.fields[key]?.widget === 'select') return true;
        // a radio group's arrows land on one of a few: only a choice that would remove answers waits to be committed
        return hidesAnswers(key, value);
      },
      holdUncommitted: (key, commit) => uncommitted.hold(key, commit),
      hidesAnswers,
      reportLocalError: (key, message) => setLocalErrors((current) => {
        if (current[key] === message) return current;
        const next = { ...current };
        if (message) next[key] = message;
        else delete next[key];
        return next;
      }),
    };
  }, [hidden, ruleAnswers, loggedIn, serviceView, localErrors, answersStore, uncommitted]);

  const formData = useMemo(() => nestedData(part.schema, snapshot.answers), [part, snapshot.data]); // eslint-disable-line react-hooks/exhaustive-deps -- keyed on this part's own answer values: a rule answer changing makes no new form data
  const partErrors = useMemo(() => {
    const own: FieldErrors = {};
    for (const key of part.keys) if (errors[key]?.length) own[key] = errors[key]!;
    return nestedErrors(part.schema, own);
  }, [part, errors]);
  const uiSchema = useMemo(() => ({ ...part.uiSchema, ...uiSubmit }), [part]);

  const onChange = useCallback((event: IChangeEvent) => {
    const current = answersStore.get();
    const flat = flatData(part.schema, event.formData as Record<string, unknown>);
    const changes: Record<string, string | boolean> = {};
    for (const [key, value] of Object.entries(flat)) if ((current[key] ?? '') !== value) changes[key] = value;
    if (!Object.keys(changes).length) return;
    if (guardedChange) guardedChange(changes, () => setRevision((value) => value + 1));
    else answersStore.change(changes);
  }, [part, answersStore, guardedChange]);

  const onBlur = useCallback((id: string) => onFieldBlur?.(id), [onFieldBlur]);

  return (
    <Form
      key={revision}
      schema={part.schema}
      uiSchema={uiSchema}
      formData={formData}
      validator={renderOnlyValidator}
      widgets={registry.widgets}
      fields={registry.fields}
      templates={registry.templates}
      formContext={formContext}
      extraErrors={partErrors}
      onChange={onChange}
      onBlur={onBlur}
      tagName="div"
      noHtml5Validate
      showErrorList={false}
      readonly={serviceView}
      idPrefix={part.id}
      experimental_defaultFormStateBehavior={defaultFormState}
      className="part-form"
    />
  );
});
