import { Callout } from '@blueprintjs/core';
import bannerFile from '../../../../schemas/banners.json';
import a11y from '../../../../schemas/text/accessibility.json';
import { activeBanners } from '../../../shared/banners/active-banners.ts';
import { partner } from '../../lib/partner-text.ts';

/** Date-window banners from schemas/banners.json, checked against today in the partner's time zone. */
export function BannerArea() {
  const banners = activeBanners(bannerFile.banners, new Date(), partner.time_zone);
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
