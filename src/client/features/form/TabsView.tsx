import { Tab, Tabs } from '@blueprintjs/core';
import type { PageModel, TabsBlock } from '../../../shared/form/form-model.ts';
import { descKey } from '../../../shared/answers/key-naming.ts';
import { form } from '../../../shared/form/form-model-data.ts';
import type { FieldErrors } from '../../../shared/validation/field-errors.ts';
import { answersStore, useExtras } from '../../session/answers-store.ts';
import { BlockView } from './BlockView.tsx';
import { useChooseTab } from './use-form-extras.ts';

interface Props {
  page: PageModel;
  block: TabsBlock;
  errors: FieldErrors;
  loggedIn: boolean;
  serviceView: boolean;
  onFieldBlur?: (key: string) => void;
}

/**
 * Alternative answers in tabs (spec section 4 "Tabs"): the choice is saved and the
 * answers of the tab left are cleared. Anonymous visitors see only the default tab.
 */
export function TabsView({ page, block, errors, loggedIn, serviceView, onFieldBlur }: Props) {
  const extras = useExtras();
  const chooseTab = useChooseTab();
  const chosen = loggedIn || serviceView ? extras.tabs[block.tab_id] ?? block.default_tab : block.default_tab;
  const render = (tabId: string) => block.tabs.find((tab) => tab.id === tabId)!.blocks.map((inner, index) => (
    <BlockView key={index} page={page} block={inner} errors={errors} loggedIn={loggedIn} serviceView={serviceView} onFieldBlur={onFieldBlur} />
  ));

  if (!loggedIn || serviceView) {
    return <div className="tab-panel-static">{render(chosen)}</div>;
  }

  const onChange = async (next: string) => {
    if (next === chosen) return;
    const left = block.tabs.find((tab) => tab.id === chosen);
    if (!(await chooseTab(block.tab_id, next, block.default_tab))) return;
    const cleared: Record<string, string> = {};
    for (const key of left?.keys ?? []) {
      cleared[key] = '';
      if (form.fields[key]?.options) cleared[descKey(key)] = '';
    }
    answersStore.change(cleared);
  };

  return (
    <Tabs id={block.tab_id} selectedTabId={chosen} onChange={(id) => void onChange(String(id))} className="answer-tabs" large renderActiveTabPanelOnly>
      {block.tabs.map((tab) => (
        <Tab key={tab.id} id={tab.id} title={tab.title} panel={<div className="tab-panel">{render(tab.id)}</div>} />
      ))}
    </Tabs>
  );
}
