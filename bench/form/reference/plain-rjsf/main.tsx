/**
 * The bench:form reference page: RJSF 6 as its documentation shows it, 150 text fields,
 * core's own theme, the ajv8 validator, no server. Our pages are measured against it.
 */
import Form from '@rjsf/core';
import type { RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

const FIELDS = 150;

const schema: RJSFSchema = {
  type: 'object',
  properties: Object.fromEntries(
    Array.from({ length: FIELDS }, (_, index) => [`field_${index + 1}`, { type: 'string', title: `Field ${index + 1}` }]),
  ),
};

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <div data-page>
      <Form schema={schema} validator={validator} />
    </div>
  </StrictMode>,
);
