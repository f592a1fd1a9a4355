/**
 * Stands in for @blueprintjs/icons' iconNames module (vite.config.ts `standIns`), whose
 * table of all 600 icon names costs 11 KB gzip and a loop over them at start-up. We name
 * icons as strings ("caret-down"); Blueprint's own components use icon components or
 * `IconNames.X`, which this answers by turning the key into the name. An unknown name
 * still goes to the icon loader, which reports it.
 */
const nameOf = (key: string) => key.replace(/_/g, '-').replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

export const IconNames: Record<string, string> = new Proxy({}, {
  get: (_target, key) => (typeof key === 'string' ? nameOf(key) : undefined),
});

export const IconNamesSet = {
  has: (name: unknown): boolean => typeof name === 'string' && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(name),
};
