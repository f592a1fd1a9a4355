import { createContext, useContext } from 'react';
import type { PageModel } from '../src/shared/form/form-model.ts';
import type { CheckProblem } from './check-problems.ts';
import type { PageMessages } from './field-facts.ts';

/** What the annotated field template reads: the page as the schemas define it (its rules), its messages, the check's problems. */
export interface PreviewState {
  page: PageModel;
  messages: PageMessages | undefined;
  problems: CheckProblem[];
  /** conditional sections by the key of the question that heads them */
  sectionsAt: Map<string, { id: string; index: number; keys: string[] }[]>;
  /** the page's tabs by the key that starts each, when every tab is drawn */
  tabsAt: Map<string, { title: string; chosenFirst: boolean }>;
}

export const PreviewContext = createContext<PreviewState | null>(null);

export function usePreview(): PreviewState {
  const state = useContext(PreviewContext);
  if (!state) throw new Error('the annotated fields need a PreviewContext');
  return state;
}
