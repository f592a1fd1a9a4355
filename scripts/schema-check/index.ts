/**
 * The development-only schema checks (spec section 5), run on the schemas directory
 * (schemas/, or SCHEMAS_DIR). Each check is a function returning problems; this module
 * runs them in order and builds the form only when the files are sound, so every problem
 * reported is a cause, not a consequence.
 */
import { SchemaError } from '../generate/expand.ts';
import { buildForm } from '../generate/form-model.ts';
import { generateValidators } from '../generate/validators.ts';
import {
  checkCodedAnswers, checkOptionRules, checkPageFiles, checkPagesOutsideSteps, checkRefs, checkSettings, checkWidgets,
} from './configuration.ts';
import { checkCycle } from './cycle.ts';
import { readDataModel } from './data-model.ts';
import { checkConditions } from './conditions.ts';
import { checkDataModelKeys } from './data-model-keys.ts';
import { checkDuplicateKeys } from './duplicate-keys.ts';
import { checkExtraKeys, checkKeepLists } from './extra-keys.ts';
import { checkFileItems } from './file-items.ts';
import { loadTree } from './load.ts';
import { walkPages } from './page-keys.ts';
import { checkPrefixes } from './prefixes.ts';
import { problem, uniqueProblems, type Problem } from './problems.ts';
import { checkRepeatMax } from './repeat-max.ts';
import { checkTranslations } from './translations.ts';
import { checkUnusedKeys } from './unused-keys.ts';

export { formatProblem, type Problem, type ProblemKind } from './problems.ts';

export interface SchemaCheckResult {
  errors: Problem[];
  warnings: Problem[];
  pages: number;
  keys: number;
  /** whether the generator's form (and its validators) could be built and checked */
  formBuilt: boolean;
}

function fromBuildError(error: unknown): Problem {
  if (error instanceof SchemaError) {
    const message = error.message.split('\n')[0]!.replace(/^[^:]+: ("[^"]*": )?/, '');
    return problem('bad configuration', error.file, error.key, message, error.fix);
  }
  const message = (error as Error).message ?? String(error);
  const file = /^schemas\/([^:]+):/.exec(message)?.[1] ?? '';
  return problem('bad configuration', file, '', `the form cannot be built: ${message.replace(/^schemas\/[^:]+: /, '')}`, 'correct the schema so the generator (npm run gen:types) accepts it');
}

export function runSchemaCheck(): SchemaCheckResult {
  const tree = loadTree();
  const { model, problems: modelProblems } = readDataModel(tree);
  const walks = walkPages(tree);
  const errors: Problem[] = [
    ...tree.problems,
    ...modelProblems,
    ...checkPageFiles(tree),
    ...checkRefs(tree),
    ...checkWidgets(tree),
    ...checkOptionRules(tree),
    ...checkSettings(tree),
    ...checkCycle(tree),
    ...checkRepeatMax(tree),
    ...walks.flatMap((walk) => walk.problems),
    ...checkDataModelKeys(walks, model),
    ...checkDuplicateKeys(walks),
    ...checkPrefixes(walks),
    ...checkCodedAnswers(walks, model),
    ...checkConditions(tree, walks),
    ...checkKeepLists(tree),
    ...checkFileItems(tree, walks, model),
  ];
  let formBuilt = false;
  if (!errors.length) {
    try {
      const form = buildForm();
      formBuilt = true;
      errors.push(...checkExtraKeys(form, model, tree));
      generateValidators(form.validation);
    } catch (error) {
      errors.push(fromBuildError(error));
    }
  }
  // translations are checked on sound files only: a question the form cannot take would
  // only repeat its error as a missing translation
  if (!errors.length) errors.push(...checkTranslations(tree));
  // keys left unasked by a broken page would only repeat its errors as warnings
  const warnings = [...(errors.length ? [] : checkUnusedKeys(walks, model)), ...checkPagesOutsideSteps(tree)];
  return {
    errors: uniqueProblems(errors),
    warnings: uniqueProblems(warnings),
    pages: walks.length,
    keys: walks.reduce((sum, walk) => sum + walk.keys.length, 0),
    formBuilt,
  };
}
