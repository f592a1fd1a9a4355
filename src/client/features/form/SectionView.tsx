import { Callout } from '@blueprintjs/core';
import { memo } from 'react';
import { hiddenKeysOf } from '../../../shared/answers/visibility.ts';
import type { PageModel, SectionModel } from '../../../shared/form/form-model.ts';
import type { FieldErrors } from '../../../shared/validation/field-errors.ts';
import { useAnswersSelector } from '../../session/session-hooks.ts';
import { BlockView } from './BlockView.tsx';
import { useClearNotices } from './use-clear-notices.ts';

interface Props {
  page: PageModel;
  section: SectionModel;
  errors: FieldErrors;
  loggedIn: boolean;
  serviceView: boolean;
  onFieldBlur?: (key: string) => void;
}

/** A titled section of a page; it disappears when every answer in it is hidden. */
export const SectionView = memo(function SectionView({ page, section, errors, loggedIn, serviceView, onFieldBlur }: Props) {
  const allHidden = useAnswersSelector(null, (answers) => {
    const hidden = hiddenKeysOf(page, answers);
    return section.keys.every((key) => hidden.has(key));
  });
  const notices = useClearNotices(section.keys);
  if (allHidden) return null;
  const headingId = `section-${section.id}`;
  return (
    <section className="form-section" aria-labelledby={headingId} data-section={section.id}>
      <h2 className="section-title" id={headingId}>{section.title}</h2>
      {section.description && <p className="section-description">{section.description}</p>}
      {section.blocks.map((block, index) => (
        <BlockView key={index} page={page} block={block} errors={errors} loggedIn={loggedIn} serviceView={serviceView} onFieldBlur={onFieldBlur} labelledBy={headingId} />
      ))}
      {notices.map((notice) => <Callout key={notice} intent="warning" icon="info-sign" className="clear-notice" role="status">{notice}</Callout>)}
    </section>
  );
});
