/** Fills `{name}` placeholders of a message from the schema files. Unknown names stay as written. */
export function fillTemplate(template: string, values: Record<string, string | number | undefined>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name];
    return value === undefined ? whole : String(value);
  });
}
