import type { ReactNode } from 'react';
import frame from '../../../schemas/text/frame.json';
import { BannerArea } from '../features/frame/BannerArea.tsx';
import { Footer } from '../features/frame/Footer.tsx';
import { Header } from '../features/frame/Header.tsx';

/** The frame of the account pages: no steps, no welcome box. */
export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <div className="app-shell auth-shell">
      <a className="skip-link" href="#main">{frame.skip_link}</a>
      <BannerArea />
      <Header />
      <main id="main" className="app-main auth-main" tabIndex={-1}>
        {children}
      </main>
      <Footer applicationLink />
    </div>
  );
}
