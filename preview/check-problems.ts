import { useEffect, useState } from 'react';
import { CHECK_EVENT, CHECK_URL } from './check-channel.ts';

/** One problem of `npm run check:schemas --format json`, as the preview server passes it on. */
export interface CheckProblem {
  kind: string;
  file: string;
  key: string;
  message: string;
  fix: string;
  line?: number;
  column?: number;
  level: 'error' | 'warning';
}

export interface CheckReport {
  ok: boolean;
  errors: Omit<CheckProblem, 'level'>[];
  warnings: Omit<CheckProblem, 'level'>[];
}


export function problemsOf(report: CheckReport): CheckProblem[] {
  return [
    ...report.errors.map((item) => ({ ...item, level: 'error' as const })),
    ...report.warnings.map((item) => ({ ...item, level: 'warning' as const })),
  ];
}

/** The latest check:schemas problems: fetched once, then pushed by the server after each saved edit. */
export function useCheckProblems(): CheckProblem[] | null {
  const [problems, setProblems] = useState<CheckProblem[] | null>(null);
  useEffect(() => {
    let current = true;
    // under `npm run dev` there is no check server: the pages still show, the check panel keeps waiting
    fetch(CHECK_URL).then((response) => response.json() as Promise<CheckReport>).then(
      (report) => current && setProblems(problemsOf(report)),
      () => current && setProblems(null),
    );
    const onReport = (report: CheckReport) => setProblems(problemsOf(report));
    import.meta.hot?.on(CHECK_EVENT, onReport);
    return () => {
      current = false;
      import.meta.hot?.off(CHECK_EVENT, onReport);
    };
  }, []);
  return problems;
}
