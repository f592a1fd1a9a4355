import { Component, type ReactNode } from 'react';
import { RootErrorScreen } from './RootErrorScreen.tsx';

/** Spec section 8: an error while loading or drawing a page shows the root error screen instead of a blank page. */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: undefined };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown error') };
  }

  override render() {
    return this.state.error === undefined ? this.props.children : <RootErrorScreen error={this.state.error} />;
  }
}
