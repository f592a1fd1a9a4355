import { Button, Dialog, DialogBody, DialogFooter, Tab, Tabs } from '@blueprintjs/core';
import { useEffect, useRef, useState } from 'react';
import documentsText from '../../../../schemas/documents.json';
import { apiRequest } from '../../lib/api-client.ts';
import { focusOnOpen } from '../../lib/overlay-focus.ts';
import { documentsStore } from '../../session/documents-store.ts';
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
  /** the id of the heading that names the tab list */
  labelledBy?: string;
}

/**
 * Alternative answers in tabs (spec section 4 "Tabs"): the choice is saved and the
 * answers of the tab left are cleared. Anonymous visitors see only the default tab.
 */
export function TabsView({ page, block, errors, loggedIn, serviceView, onFieldBlur, labelledBy }: Props) {
  const extras = useExtras();
  const chooseTab = useChooseTab();
  const [blocked, setBlocked] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  // Blueprint's Tabs take no attributes for the tab list: it is named after the section here
  useEffect(() => {
    const list = wrapper.current?.querySelector('[role="tablist"]');
    if (list && labelledBy) list.setAttribute('aria-labelledby', labelledBy);
  });
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
    const documents = (left?.keys ?? []).filter((key) => form.fields[key]?.type === 'document');
    // not while a file is on its way; a file on the tab being left goes first, with its conversion
    if (documentsStore.isBusy(documents)) {
      setBlocked(true);
      return;
    }
    for (const key of documents.filter((item) => documentsStore.get(item).phase === 'done')) {
      try {
        await apiRequest(`/api/pdf/document-answer/${key}`, 'DELETE');
        documentsStore.set(key, { phase: 'idle' });
        answersStore.applyFromServer({ [key]: '' });
      } catch {
        setBlocked(true);
        return;
      }
    }
    if (!(await chooseTab(block.tab_id, next, block.default_tab))) return;
    const cleared: Record<string, string> = {};
    for (const key of left?.keys ?? []) {
      cleared[key] = '';
      if (form.fields[key]?.options) cleared[descKey(key)] = '';
    }
    answersStore.change(cleared);
  };

  return (
    <div ref={wrapper} className="answer-tabs-wrapper">
      <Tabs id={block.tab_id} selectedTabId={chosen} onChange={(id) => void onChange(String(id))} className="answer-tabs" large renderActiveTabPanelOnly>
        {block.tabs.map((tab) => (
          // disabled={false} spelled out: with React 19 Blueprint's default is not seen by Tabs, whose arrow keys need it
          <Tab key={tab.id} id={tab.id} title={tab.title} disabled={false} panel={<div className="tab-panel">{render(tab.id)}</div>} />
        ))}
      </Tabs>
      <Dialog isOpen={blocked} onClose={() => setBlocked(false)} title={documentsText.messages.in_progress_title} className="app-dialog app-dialog-xs"
        onOpening={focusOnOpen('.bp6-dialog-footer .bp6-button')}>
        <DialogBody><p>{documentsText.messages.in_progress_text}</p></DialogBody>
        <DialogFooter actions={<Button intent="primary" text={documentsText.messages.ok} onClick={() => setBlocked(false)} />} />
      </Dialog>
    </div>
  );
}
