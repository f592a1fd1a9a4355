import { Outlet } from 'react-router-dom';
import frame from '../../../schemas/text/frame.json';
import { BannerArea } from '../features/frame/BannerArea.tsx';
import { Footer } from '../features/frame/Footer.tsx';
import { Header } from '../features/frame/Header.tsx';
import { StepNav } from '../features/frame/StepNav.tsx';
import { WelcomeBox } from '../features/frame/WelcomeBox.tsx';
import { MissingInfoPanel } from '../features/lifecycle/MissingInfoPanel.tsx';
import { useApplicationNavigation } from '../features/lifecycle/use-application-navigation.ts';
import { useApplicationStatus } from '../features/lifecycle/use-application-status.ts';
import { useClientSnapshot } from '../session/client-snapshot.ts';

/** The page frame of spec section 1 around the three application steps. */
export function FormFrame() {
  const { is_service_user: service } = useClientSnapshot();
  useApplicationStatus();
  const navigation = useApplicationNavigation();
  return (
    <div className={`app-shell${service ? ' service-view' : ''}`}>
      <a className="skip-link" href="#main">{frame.skip_link}</a>
      {!service && <BannerArea />}
      <Header showAccount={!service} />
      {!service && <StepNav onNavigate={(path) => void navigation.followLink(path)} />}
      <main id="main" className="app-main" tabIndex={-1}>
        <WelcomeBox />
        <MissingInfoPanel />
        <Outlet />
      </main>
      {!service && <Footer />}
    </div>
  );
}
