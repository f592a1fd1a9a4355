import { Callout } from '@blueprintjs/core';
import shownBanners from '../../../shared/generated/banners-shown.json';
import a11y from '../../../../schemas/text/accessibility.json';
import { activeBanners } from '../../../shared/banners/active-banners.ts';
import { partner } from '../../lib/partner-text.ts';

/**
 * Date-window banners from schemas/banners.json, their dates from schemas/deadlines.json (worked
 * out by gen:types, in this build's language), checked against today in the partner's time zone.
 */
export function BannerArea() {
  const banners = activeBanners(shownBanners, new Date(), partner.time_zone);
  if (banners.length === 0) return null;
  return (
    <div className="banner-area" role="region" aria-label={a11y.announcements_label}>
      {banners.map((banner) => (
        <Callout key={banner.id} intent="primary" icon="notifications" className="banner" compact>
          {banner.text}
        </Callout>
      ))}
    </div>
  );
}
