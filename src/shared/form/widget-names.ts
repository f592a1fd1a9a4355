/**
 * The widget and field names the client theme provides: the only values a `ui:widget` or
 * `ui:field` in the .ui.json files under schemas/ may use. The theme's registry
 * (src/client/app/form-registry.ts: the theme's generic ones and the features') provides each of these names, and the schema check
 * (scripts/check-schemas.ts) rejects any other, so a typo in a .ui.json fails the build
 * instead of rendering RJSF's "unsupported widget".
 *
 * - widgets: one answer each. The generator also picks text, select, checkbox, date and
 *   file by default when a .ui.json names none.
 * - fields: one input made of several answers (a school search with its address, a
 *   month-and-year pair, a group of check boxes).
 */
export const THEME_NAMES = {
  widgets: ['text', 'textarea', 'email', 'select', 'radio', 'checkbox', 'date', 'phone', 'internationalPhone', 'file', 'hidden', 'zipLookup', 'postalCode'],
  fields: ['school', 'monthYear', 'checkGroup'],
} as const;

export type WidgetName = (typeof THEME_NAMES.widgets)[number];
export type FieldName = (typeof THEME_NAMES.fields)[number];

export function isWidgetName(name: string): name is WidgetName {
  return (THEME_NAMES.widgets as readonly string[]).includes(name);
}

export function isFieldName(name: string): name is FieldName {
  return (THEME_NAMES.fields as readonly string[]).includes(name);
}
