import { useState } from 'react';
import { useClientSnapshot } from '../../session/client-snapshot.ts';
import { AccountButton } from './AccountButton.tsx';

type Menu = typeof import('./AccountPopoverMenu.tsx')['AccountPopoverMenu'];
let loaded: Menu | undefined;
const loadMenu = () => import('./AccountPopoverMenu.tsx').then((module) => (loaded = module.AccountPopoverMenu));

/**
 * The header's account button (spec "Account popover"). Blueprint's popover and its
 * positioning library (@floating-ui, about 13 KB gzip) are not part of a first visit:
 * they load when the visitor reaches for the button (pointer or focus), and the
 * popover takes the button's place on the first press, opened.
 */
export function AccountPopover() {
  const snapshot = useClientSnapshot();
  const [menu, setMenu] = useState<{ Menu: Menu; openAtOnce: boolean } | undefined>(() => (loaded ? { Menu: loaded, openAtOnce: false } : undefined));
  if (snapshot.is_service_user) return null;
  if (menu) return <menu.Menu openAtOnce={menu.openAtOnce} />;
  const warm = () => void loadMenu().catch(() => {}); // a failed load is tried again on the press
  const open = () => void loadMenu().then((Menu) => setMenu({ Menu, openAtOnce: true }));
  // the attributes the popover's target carries (a dialog, closed)
  return <AccountButton aria-haspopup="dialog" aria-expanded={false} onPointerEnter={warm} onFocus={warm} onClick={open} />;
}
