import formModel from '../generated/form-model.json';
import type { FormModel } from './form-model.ts';

/** The generated form model (scripts/generate.ts), typed. */
export const form = formModel as unknown as FormModel;
