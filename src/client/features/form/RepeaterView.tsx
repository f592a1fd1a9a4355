import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import frame from '../../../../schemas/text/frame.json';
import { form } from '../../../shared/form/form-model-data.ts';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { focusOnOpen } from '../../lib/overlay-focus.ts';
import { hiddenKeysOf } from '../../../shared/answers/visibility.ts';
import type { PageModel, RepeaterBlock } from '../../../shared/form/form-model.ts';
import type { FieldErrors } from '../../../shared/validation/field-errors.ts';
import { useAnswersSelector, useExtras } from '../../session/session-hooks.ts';
import { PartForm } from './PartForm.tsx';
import { useAddAnother, useRemoveAnother } from './use-form-extras.ts';

interface Props {
  page: PageModel;
  block: RepeaterBlock;
  errors: FieldErrors;
  loggedIn: boolean;
  serviceView: boolean;
  onFieldBlur?: (key: string) => void;
}

const removeText = frame.repeater_remove;

/** What an instance is called: its numbered title ("Class 2"), else the group's title and its number ("Athletics 2"). */
function instanceName(block: RepeaterBlock, index: number): string {
  const [first, second] = block.instances;
  if (second?.title) return block.instances[index]!.title ?? '';
  return `${first!.title || form.fields[first!.keys[0]!]?.title || ''} ${index + 1}`;
}

/**
 * An add-another repeater (spec section 4): as many instances as the applicant asked
 * for; the button shows for a logged-in applicant below the maximum. With more than one,
 * each can be removed (after a question): the server moves the stored answers of the ones
 * after it up, so the answers stay numbered 1..n as the data model expects, whatever this
 * page had seen of them.
 */
export function RepeaterView({ page, block, errors, loggedIn, serviceView, onFieldBlur }: Props) {
  const extras = useExtras();
  const addAnother = useAddAnother();
  const removeAnother = useRemoveAnother();
  const count = loggedIn || serviceView ? Math.min(block.max, Math.max(1, extras.addAnother[block.button_id] ?? 1)) : 1;
  const firstKeys = block.instances[0]!.keys;
  const allHidden = useAnswersSelector(null, (answers) => {
    const hidden = hiddenKeysOf(page, answers);
    return firstKeys.every((key) => hidden.has(key));
  });
  const visible = useMemo(() => block.instances.slice(0, count), [block, count]);
  const wrapper = useRef<HTMLDivElement>(null);
  const added = useRef(false);
  const addButton = useRef<HTMLButtonElement>(null);
  const [removing, setRemoving] = useState<number | null>(null);
  const [announced, setAnnounced] = useState('');
  const focusAfterRemoval = useRef<number | null>(null);

  const remove = async (index: number) => {
    setRemoving(null);
    const name = instanceName(block, index);
    // where the focus goes once the list is drawn shorter (the count changes as the server answers)
    focusAfterRemoval.current = Math.min(index, count - 2);
    // the server moves the stored answers of the items after it up (the page may not have seen them all)
    if (!(await removeAnother(block.button_id, index + 1, fillTemplate(removeText.button, { item: name })))) {
      focusAfterRemoval.current = null;
      return;
    }
    setAnnounced(fillTemplate(removeText.done, { item: name }));
  };
  // after "Add another", the new instance's first answer takes the focus (the button may be gone)
  useEffect(() => {
    const after = focusAfterRemoval.current;
    focusAfterRemoval.current = null;
    if (after !== null) {
      // the instance now in the removed one's place (or the one before it) takes the focus
      wrapper.current?.querySelectorAll('.repeater-instance')[after]?.querySelector<HTMLElement>('input:not([type="hidden"]), select, textarea')?.focus();
      return;
    }
    if (!added.current) return;
    added.current = false;
    const instances = wrapper.current?.querySelectorAll('.repeater-instance');
    instances?.[instances.length - 1]?.querySelector<HTMLElement>('input:not([type="hidden"]), select, textarea')?.focus();
  }, [count]);
  if (allHidden) return null;

  return (
    <div className="repeater" data-repeater={block.button_id} ref={wrapper}>
      {visible.map((instance, index) => (
        <div className="repeater-instance" key={instance.id}>
          <PartForm page={page} part={instance} errors={errors} loggedIn={loggedIn} serviceView={serviceView} onFieldBlur={onFieldBlur} />
          {loggedIn && !serviceView && count > 1 && (
            <Button icon="trash" variant="minimal" intent="danger" className="repeater-remove"
              text={fillTemplate(removeText.button, { item: instanceName(block, index) })} onClick={() => setRemoving(index)} />
          )}
        </div>
      ))}
      <span className="visually-hidden" role="status">{announced}</span>
      <Dialog isOpen={removing !== null} onClose={() => setRemoving(null)} role="alertdialog" className="app-dialog app-dialog-xs"
        title={fillTemplate(removeText.title, { item: removing === null ? '' : instanceName(block, removing) })}
        aria-describedby={`${block.button_id}-remove-text`} onOpening={focusOnOpen('.repeater-remove-keep')}>
        <DialogBody><p id={`${block.button_id}-remove-text`}>{removeText.body}</p></DialogBody>
        <DialogFooter actions={(
          <>
            <Button text={removeText.keep} onClick={() => setRemoving(null)} className="repeater-remove-keep" />
            <Button intent="danger" text={removeText.confirm} onClick={() => removing !== null && void remove(removing)} />
          </>
        )} />
      </Dialog>
      {loggedIn && !serviceView && count < block.max && (
        <Button
          icon="plus"
          variant="outlined"
          className="add-another"
          ref={addButton}
          text={block.add_label}
          onClick={() => {
            added.current = true;
            void addAnother(block.button_id, count + 1, block.add_label).then((saved) => {
              // refused: the new item is gone, and with it the focus; it goes back to the button
              if (!saved) requestAnimationFrame(() => addButton.current?.focus());
            });
          }}
        />
      )}
    </div>
  );
}
