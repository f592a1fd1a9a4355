import type { Block, PageModel } from '../../../shared/form/form-model.ts';
import type { FieldErrors } from '../../../shared/validation/field-errors.ts';
import { PartForm } from './PartForm.tsx';
import { RepeaterView } from './RepeaterView.tsx';
import { TabsView } from './TabsView.tsx';

interface Props {
  page: PageModel;
  block: Block;
  errors: FieldErrors;
  loggedIn: boolean;
  serviceView: boolean;
  onFieldBlur?: (key: string) => void;
  /** the id of the section's heading, which names a tab group */
  labelledBy?: string;
}

export function BlockView(props: Props) {
  const { block, labelledBy, ...rest } = props;
  if (block.type === 'part') return <PartForm part={block} {...rest} />;
  if (block.type === 'repeater') return <RepeaterView block={block} {...rest} />;
  // TabsView gets the renderer of its inner blocks, so the two files do not import each other
  return (
    <TabsView block={block} labelledBy={labelledBy} loggedIn={rest.loggedIn} serviceView={rest.serviceView}
      renderBlock={(inner, index) => <BlockView key={index} block={inner} {...rest} />} />
  );
}
