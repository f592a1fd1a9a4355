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
}

export function BlockView(props: Props) {
  const { block, ...rest } = props;
  if (block.type === 'part') return <PartForm part={block} {...rest} />;
  if (block.type === 'repeater') return <RepeaterView block={block} {...rest} />;
  return <TabsView block={block} {...rest} />;
}
