import type { RegistryFieldsType, RegistryWidgetsType, TemplatesType } from '@rjsf/utils';
import { createContext, useContext } from 'react';

export interface RegistryParts {
  widgets: RegistryWidgetsType;
  fields: RegistryFieldsType;
  templates: Partial<TemplatesType>;
}

/** What the form pages render with, for editing and for the read-only service view. */
export interface FormRegistry {
  edit: RegistryParts;
  view: RegistryParts;
}

/** Given by the app (src/client/app/form-registry.ts), which composes the theme and the features' widgets. */
export const FormRegistryContext = createContext<FormRegistry | null>(null);

export function useFormRegistry(): FormRegistry {
  const registry = useContext(FormRegistryContext);
  if (!registry) throw new Error('the form pages need a FormRegistryContext (src/client/app/form-registry.ts)');
  return registry;
}
