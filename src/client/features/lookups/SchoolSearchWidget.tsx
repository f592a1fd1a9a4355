import { InputGroup } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import lookupText from '../../../../schemas/text/lookup.json';
import { pluralText } from '../../../shared/text/plural.ts';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { ariaRequired, contextOf, describedBy } from '../../form-theme/form-context.ts';
import { findRecord, findSuggestions, type LookupCategory, type Suggestion } from './api/lookup-api.ts';
import { recordValues, type SchoolValues } from './school-parts.ts';
import type { ReplacedTextProps } from './lazy-text-widget.tsx';
import { useDebouncedCallback } from './use-debounced-callback.ts';

/** Spec section 7: the look-up input is debounced 200 ms with a max wait of 500 ms. */
const DEBOUNCE_MS = 200;
const MAX_WAIT_MS = 500;

/** What the school block (fields/SchoolField.tsx) gives its name input through `ui:options.school`. */
export interface SchoolSearchOptions {
  category: LookupCategory;
  /** sets every answer of the block in one change: the parts given, the others emptied */
  fill(values: SchoolValues): void;
  /** whether the block holds any answer besides nothing */
  hasAnswers(): boolean;
}

type Option = { kind: 'school'; item: Suggestion } | { kind: 'typed'; text: string };

/**
 * The name of a school block as an ARIA 1.2 combobox with a list (spec "School
 * autocomplete"): typing asks GET /lookup/find for suggestions, Up/Down move through
 * them, Enter chooses, Escape closes. Choosing a school fills the block from its record;
 * the last option, 'Use: "typed text"', keeps the text as the name and empties the rest;
 * emptying the name empties the block.
 */
export default function SchoolSearchWidget(props: WidgetProps & ReplacedTextProps) {
  const { name: id, value, schema, uiSchema, rawErrors, readonly, disabled, options, onBlur, onFocus, replacedText } = props;
  const school = options.school as SchoolSearchOptions;
  const stored = String(value ?? '');
  const [text, setText] = useState(replacedText ?? stored);
  /**
   * The applicant is typing a name that is not an answer yet (it becomes one when chosen or
   * left): an answer arriving meanwhile (what the plain field gave as it was taken over,
   * another tab's) does not replace the keys typed since.
   */
  const typing = useRef(replacedText !== undefined && replacedText !== stored);
  const [items, setItems] = useState<Suggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [message, setMessage] = useState(false);
  const [filling, setFilling] = useState(false);
  const [status, setStatus] = useState('');
  /** what a choice filled in, said once the list has closed */
  const [filled, setFilled] = useState('');
  const searchSeq = useRef(0);
  const chooseSeq = useRef(0);
  const abort = useRef<AbortController | null>(null);
  const shown = useRef<Suggestion[]>([]);

  // a new answer from elsewhere (a choice saved, the profile loaded) shows in the input
  useEffect(() => {
    if (!typing.current) setText(stored);
  }, [stored]);
  // the highlighted option stays in view in a list that scrolls
  useEffect(() => {
    if (active >= 0) document.getElementById(`${id}-suggestion-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, id]);
  useEffect(() => () => abort.current?.abort(), []);

  const typed = text.trim();
  // the name typed, or the chosen school's while its record loads, is not an answer yet: should
  // the page be hidden or closed first, it becomes the name, as leaving the field would make it
  const { holdUncommitted } = contextOf(props);
  const pendingName = (typing.current || filling) && typed && typed !== stored && !readonly && !disabled ? typed : '';
  useEffect(() => {
    holdUncommitted?.(id, pendingName ? () => {
      flushSync(() => school.fill({ name: pendingName }));
      return true;
    } : null);
  }, [holdUncommitted, id, pendingName, school]);
  useEffect(() => () => holdUncommitted?.(id, null), [holdUncommitted, id]);
  const choices: Option[] = [...items.map((item) => ({ kind: 'school' as const, item })), ...(typed ? [{ kind: 'typed' as const, text: typed }] : [])];
  const expanded = open && choices.length > 0;
  const listId = `${id}-suggestions`;
  const optionId = (index: number) => `${id}-suggestion-${index}`;
  const messageId = `${id}-lookup-message`;

  const search = useDebouncedCallback((query: string) => {
    const seq = ++searchSeq.current;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    void findSuggestions(school.category, query, { signal: controller.signal }).then((found) => {
      if (seq !== searchSeq.current) return;
      const previous = shown.current;
      shown.current = found;
      // the highlighted option stays highlighted when it is still in the list
      setActive((index) => {
        if (index === previous.length) return found.length; // 'Use: ...' is always last
        return index >= 0 && index < previous.length ? found.findIndex((item) => item.id === previous[index]!.id) : -1;
      });
      setItems(found);
      setStatus(found.length
        ? pluralText(lookupText.status_count, found.length)
        : fillTemplate(lookupText.status_none, { text: query.trim() }));
    });
  }, DEBOUNCE_MS, MAX_WAIT_MS);

  // keys typed into the plain field this replaced, and not its answer yet, search as keys typed here do
  useEffect(() => {
    if (!typing.current || document.activeElement?.id !== id || !text.trim()) return;
    setOpen(true);
    search(text);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once, as it replaces the field

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const forget = () => {
    shown.current = [];
    setItems([]);
  };

  const stopSearching = () => {
    search.cancel();
    searchSeq.current++;
    abort.current?.abort();
  };

  const clearAll = () => {
    typing.current = false;
    stopSearching();
    forget();
    close();
    setMessage(false);
    chooseSeq.current++;
    setFilling(false);
    if (stored || school.hasAnswers()) school.fill({});
  };

  const keepTyped = (name: string) => {
    typing.current = false;
    stopSearching();
    forget();
    close();
    chooseSeq.current++;
    setFilling(false);
    setText(name);
    setMessage(true);
    school.fill({ name });
  };

  const chooseSchool = (item: Suggestion) => {
    typing.current = false;
    stopSearching();
    forget();
    close();
    setText(item.text);
    setMessage(false);
    setFilling(true);
    setStatus(lookupText.status_filling);
    const seq = ++chooseSeq.current;
    findRecord(school.category, item.id).then(
      (record) => {
        if (seq !== chooseSeq.current) return;
        setFilling(false);
        setStatus('');
        const values = recordValues(record, item.text);
        school.fill(values);
        setFilled(fillTemplate(lookupText.school_filled, { place: [values.name, values.city, values.state].filter(Boolean).join(', ') }));
      },
      () => {
        // spec section 7: when the record cannot be had, the chosen label is kept as the name
        if (seq !== chooseSeq.current) return;
        setFilling(false);
        setStatus('');
        setMessage(true);
        school.fill({ name: item.text });
      },
    );
  };

  const choose = (option: Option) => (option.kind === 'school' ? chooseSchool(option.item) : keepTyped(option.text));

  const onInput = (next: string) => {
    setFilled('');
    setText(next);
    setMessage(false);
    chooseSeq.current++;
    setFilling(false);
    if (!next.trim()) {
      clearAll();
      return;
    }
    typing.current = true;
    setOpen(true);
    search(next);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (readonly || disabled) return;
    const count = choices.length;
    switch (event.key) {
      case 'ArrowDown':
        if (!count) return;
        event.preventDefault();
        if (!open) {
          setOpen(true);
          if (typed) search(text);
        }
        setActive((index) => (index + 1 >= count ? 0 : index + 1));
        break;
      case 'ArrowUp':
        if (!count) return;
        event.preventDefault();
        setOpen(true);
        setActive((index) => (index <= 0 ? count - 1 : index - 1));
        break;
      case 'Enter':
        if (expanded && active >= 0 && active < count) {
          event.preventDefault();
          choose(choices[active]!);
        }
        break;
      case 'Escape':
        if (expanded) {
          event.preventDefault();
          event.stopPropagation();
          close();
        }
        break;
      default:
    }
  };

  const onInputBlur = () => {
    close();
    // text typed and left without a choice is kept as typed, as 'Use: "..."' would
    if (!filling && typed && typed !== stored) keepTyped(typed);
    typing.current = false;
    onBlur(id, typed);
  };

  const help = Boolean(uiSchema?.['ui:help']);
  const errors = Boolean(rawErrors?.length);
  const described = [describedBy(id, { help, errors }), message ? messageId : ''].filter(Boolean).join(' ') || undefined;

  return (
    <div className="lookup-combobox">
      <InputGroup
        id={id}
        name={id}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        aria-busy={filling || undefined}
        aria-invalid={errors || undefined}
        aria-required={ariaRequired(props)}
        aria-describedby={described}
        value={text}
        maxLength={typeof schema.maxLength === 'number' ? schema.maxLength : 100}
        autoComplete="off"
        spellCheck={false}
        placeholder={props.placeholder || undefined}
        readOnly={readonly}
        disabled={disabled}
        intent={errors ? 'danger' : 'none'}
        onValueChange={onInput}
        onKeyDown={onKeyDown}
        onBlur={onInputBlur}
        onFocus={() => onFocus(id, stored)}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={lookupText.list_label}
        className="lookup-listbox"
        hidden={!expanded}
        // a click on an option must not take the focus (and the text) away from the input first
        onMouseDown={(event) => event.preventDefault()}
      >
        {expanded && choices.map((option, index) => (
          <li
            key={option.kind === 'school' ? option.item.id : 'typed'}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className={`lookup-option${index === active ? ' lookup-option-active' : ''}${option.kind === 'typed' ? ' lookup-option-typed' : ''}`}
            onClick={() => choose(option)}
            onMouseMove={() => index !== active && setActive(index)}
          >
            {option.kind === 'school' ? (
              <>
                <div className="lookup-option-label">{option.item.text}</div>
                {option.item.sub_text && <div className="lookup-option-subtext">{option.item.sub_text}</div>}
              </>
            ) : (
              <div className="lookup-option-label">{fillTemplate(lookupText.use_typed, { text: option.text })}</div>
            )}
          </li>
        ))}
      </ul>
      <div className="visually-hidden" role="status">{open || filling ? status : filled}</div>
      {message && <div className="lookup-message" id={messageId} role="status">{lookupText.enter_below}</div>}
    </div>
  );
}
