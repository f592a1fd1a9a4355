import { Outlet } from 'react-router-dom';
import frame from '../../../schemas/text/frame.json';
import { BannerArea } from '../features/frame/BannerArea.tsx';
import { Footer } from '../features/frame/Footer.tsx';
import { Header } from '../features/frame/Header.tsx';
import { StepNav } from '../features/frame/StepNav.tsx';
import { WelcomeBox } from '../features/frame/WelcomeBox.tsx';
import { useClientSnapshot } from '../session/client-snapshot.ts';

/** The page frame of spec section 1 around the three application steps. */
export function FormFrame() {
  const { is_service_user: service } = useClientSnapshot();
  return (
    <div className={`app-shell${service ? ' service-view' : ''}`}>
      <a className="skip-link" href="#main">{frame.skip_link}</a>
      {!service && <BannerArea />}
      <Header showAccount={!service} />
      {!service && <StepNav />}
      <main id="main" className="app-main" tabIndex={-1}>
        <WelcomeBox />
        <Outlet />
      </main>
      {!service && <Footer />}
    </div>
  );
}
