import type { ReactNode } from 'react';
import { Navigate, useLocation } from '../lib/routing.tsx';
import type { LocationRule } from './location-rules.ts';

/** Renders its children only where the rule lets the visitor stay; otherwise goes where it says. */
export function LocationRuleGate({ rule, children }: { rule: LocationRule; children: ReactNode }) {
  const location = useLocation();
  const elsewhere = rule(location);
  return elsewhere === null ? children : <Navigate to={elsewhere} replace />;
}
