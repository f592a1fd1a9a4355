import dataModel from '../../../schemas/data-model.json';
import partner from '../../../schemas/partner.json';
import frame from '../../../schemas/text/frame.json';
import { configurationProblems, type ConfigurationProblem, type DataModelKeys } from '../../shared/form/configuration-checks.ts';
import { form } from '../../shared/form/form-model-data.ts';

/** "WARNING- MISSING CONFIGURATION: ..." as a warning; every other kind as an error in the console. */
export function reportConfiguration(problems: ConfigurationProblem[]): void {
  for (const problem of problems) {
    const line = `${problem.kind === 'missing configuration' ? 'WARNING' : 'ERROR'}- ${problem.kind.toUpperCase()}: ${problem.message}`;
    if (problem.kind === 'missing configuration') console.warn(line);
    else console.error(line);
  }
}

/** Loaded on localhost only (main.tsx), so the data model never reaches a deployed bundle. */
export function runDevelopmentChecks(): void {
  reportConfiguration(configurationProblems(form, dataModel as DataModelKeys, frame.steps, partner.default_route));
}
