import { Fragment, type ReactNode } from 'react';

/** Like fillTemplate, but a placeholder may become an element (a link inside a sentence). */
export function renderTemplate(template: string, values: Record<string, ReactNode>): ReactNode {
  const parts = template.split(/(\{\w+\})/);
  return parts.map((part, index) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    const value = name !== undefined && name in values ? values[name] : part;
    return <Fragment key={index}>{value}</Fragment>;
  });
}
