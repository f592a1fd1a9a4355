import { Icons, type IconName } from '@blueprintjs/icons';

/**
 * Blueprint loads icon paths on demand, by default as one 100 KB chunk of every icon.
 * We bundle only the icons the app uses (this list) and register them before the first
 * render, so icons never flash in. An icon missing here still works: it falls back to
 * Blueprint's own loader. tests/unit/icons.test.ts checks the list against the icon names in the source.
 */
const base = '/node_modules/@blueprintjs/icons/lib/esm/generated';
const paths16 = import.meta.glob<string[]>(
  '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{caret-down,chevron-right,circle,cross,document,download,error,eye-off,eye-open,info-sign,lock,log-out,notifications,plus,tick,tick-circle,time,trash,user,warning-sign}.js',
  { eager: true, import: 'default' },
);
const paths20 = import.meta.glob<string[]>(
  '/node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{error,tick-circle}.js',
  { eager: true, import: 'default' },
);

export const BUNDLED_ICONS = Object.keys(paths16).map((path) => path.slice(path.lastIndexOf('/') + 1, -'.js'.length));

export async function registerIcons(): Promise<void> {
  Icons.setLoaderOptions({
    loader: async (name, size) => {
      const bundled = (size < 20 ? paths16 : paths20)[`${base}/${size < 20 ? 16 : 20}px/paths/${name}.js`];
      if (bundled) return bundled;
      const { splitPathsBySizeLoader } = await import('@blueprintjs/icons/lib/esm/paths-loaders/splitPathsBySizeLoader.js');
      return splitPathsBySizeLoader(name, size);
    },
  });
  await Icons.load(BUNDLED_ICONS as IconName[], 16);
}
