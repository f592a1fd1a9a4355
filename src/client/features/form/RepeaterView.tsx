import { Button } from '@blueprintjs/core';
import { useEffect, useMemo, useRef } from 'react';
import { hiddenKeysOf } from '../../../shared/answers/visibility.ts';
import type { PageModel, RepeaterBlock } from '../../../shared/form/form-model.ts';
import type { FieldErrors } from '../../../shared/validation/field-errors.ts';
import { useAnswersSelector, useExtras } from '../../session/answers-store.ts';
import { PartForm } from './PartForm.tsx';
import { useAddAnother } from './use-form-extras.ts';

interface Props {
  page: PageModel;
  block: RepeaterBlock;
  errors: FieldErrors;
  loggedIn: boolean;
  serviceView: boolean;
  onFieldBlur?: (key: string) => void;
}

/**
 * An add-another repeater (spec section 4): as many instances as the applicant asked
 * for; the button shows for a logged-in applicant below the maximum.
 */
export function RepeaterView({ page, block, errors, loggedIn, serviceView, onFieldBlur }: Props) {
  const extras = useExtras();
  const addAnother = useAddAnother();
  const count = loggedIn || serviceView ? Math.min(block.max, Math.max(1, extras.addAnother[block.button_id] ?? 1)) : 1;
  const firstKeys = block.instances[0]!.keys;
  const allHidden = useAnswersSelector(null, (answers) => {
    const hidden = hiddenKeysOf(page, answers);
    return firstKeys.every((key) => hidden.has(key));
  });
  const visible = useMemo(() => block.instances.slice(0, count), [block, count]);
  const wrapper = useRef<HTMLDivElement>(null);
  const added = useRef(false);
  // after "Add another", the new instance's first answer takes the focus (the button may be gone)
  useEffect(() => {
    if (!added.current) return;
    added.current = false;
    const instances = wrapper.current?.querySelectorAll('.repeater-instance');
    instances?.[instances.length - 1]?.querySelector<HTMLElement>('input:not([type="hidden"]), select, textarea')?.focus();
  }, [count]);
  if (allHidden) return null;

  return (
    <div className="repeater" data-repeater={block.button_id} ref={wrapper}>
      {visible.map((instance) => (
        <div className="repeater-instance" key={instance.id}>
          <PartForm page={page} part={instance} errors={errors} loggedIn={loggedIn} serviceView={serviceView} onFieldBlur={onFieldBlur} />
        </div>
      ))}
      {loggedIn && !serviceView && count < block.max && (
        <Button
          icon="plus"
          variant="outlined"
          className="add-another"
          text={block.add_label}
          onClick={() => {
            added.current = true;
            void addAnother(block.button_id, count + 1);
          }}
        />
      )}
    </div>
  );
}
