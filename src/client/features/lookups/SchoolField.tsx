import { getDefaultRegistry } from '@rjsf/core';
import type { FieldProps, UiSchema } from '@rjsf/utils';
import { useMemo, useRef } from 'react';
import type { LookupCategory } from './api/lookup-api.ts';
import { SCHOOL_PARTS, SCHOOL_SEARCH_WIDGET, schoolKeys, type SchoolValues } from './school-parts.ts';
import type { SchoolSearchOptions } from './SchoolSearchWidget.tsx';

const ObjectField = getDefaultRegistry().fields.ObjectField!;

const CATEGORIES: readonly LookupCategory[] = ['hs_ceeb', 'college_ceeb'];

/**
 * The school search block (spec "School search block"): its name is a search of the
 * look-up list named by `ui:options.lookupCategory` (hs_ceeb, college_ceeb); choosing,
 * typing free text or clearing sets the whole block in one change, so its answers are
 * saved together. CEEB stays read-only; address, city, state and ZIP can be typed.
 */
export default function SchoolField(props: FieldProps) {
  const { schema, uiSchema } = props;
  const keys = useMemo(() => Object.keys(schema.properties ?? {}), [schema]);
  const parts = useMemo(() => schoolKeys(keys), [keys]);
  const configured = (uiSchema?.['ui:options'] as { lookupCategory?: string } | undefined)?.lookupCategory;
  const category = CATEGORIES.find((item) => item === configured) ?? 'hs_ceeb';

  // the latest answers and onChange, read when a choice arrives (after the request)
  const latest = useRef(props);
  latest.current = props;

  const childUi = useMemo<UiSchema>(() => {
    const nameKey = parts.name;
    if (!nameKey) return uiSchema ?? {};
    const school: SchoolSearchOptions = {
      category,
      fill(values: SchoolValues) {
        const { formData, onChange, fieldPathId } = latest.current;
        const next: Record<string, unknown> = { ...(formData as Record<string, unknown> | undefined) };
        for (const part of SCHOOL_PARTS) {
          const key = parts[part];
          if (key) next[key] = values[part]?.trim() || undefined;
        }
        onChange(next, fieldPathId.path);
      },
      hasAnswers() {
        const data = (latest.current.formData ?? {}) as Record<string, unknown>;
        return SCHOOL_PARTS.some((part) => parts[part] && data[parts[part]!] !== undefined && data[parts[part]!] !== '');
      },
    };
    const nameUi = (uiSchema?.[nameKey] ?? {}) as UiSchema;
    return {
      ...uiSchema,
      [nameKey]: { ...nameUi, 'ui:widget': SCHOOL_SEARCH_WIDGET, 'ui:options': { ...(nameUi['ui:options'] as object | undefined), school } },
    };
  }, [uiSchema, parts, category]);

  return <ObjectField {...props} uiSchema={childUi} />;
}
