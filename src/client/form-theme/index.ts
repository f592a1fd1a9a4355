import { getDefaultRegistry } from '@rjsf/core';
import type { RegistryFieldsType, RegistryWidgetsType, TemplatesType } from '@rjsf/utils';
import type { FieldName, WidgetName } from '../../shared/form/widget-names.ts';
import CheckGroupField from './fields/CheckGroupField.tsx';
import MonthYearField from './fields/MonthYearField.tsx';
import SchoolField from './fields/SchoolField.tsx';
import FieldTemplate from './templates/FieldTemplate.tsx';
import ObjectFieldTemplate from './templates/ObjectFieldTemplate.tsx';
import {
  DescriptionFieldTemplate, ErrorListTemplate, FieldErrorTemplate, FieldHelpTemplate, SubmitButton, TitleFieldTemplate,
} from './templates/simple-templates.tsx';
import CheckboxWidget from './widgets/CheckboxWidget.tsx';
import DateWidget from './widgets/DateWidget.tsx';
import EmailWidget from './widgets/EmailWidget.tsx';
import LazyFileWidget from './widgets/LazyFileWidget.tsx';
import HiddenWidget from './widgets/HiddenWidget.tsx';
import LazySchoolSearchWidget from './widgets/LazySchoolSearchWidget.tsx';
import PhoneWidget from './widgets/PhoneWidget.tsx';
import RadioWidget from './widgets/RadioWidget.tsx';
import SelectWidget from './widgets/SelectWidget.tsx';
import TextareaWidget from './widgets/TextareaWidget.tsx';
import TextWidget from './widgets/TextWidget.tsx';
import TextOrLookupWidget from './widgets/ZipLookupWidget.tsx';

/** Our Blueprint theme for RJSF: one component per registry key (the names of src/shared/form/widget-names.ts). */
export const widgets: RegistryWidgetsType & Record<WidgetName, unknown> = {
  text: TextOrLookupWidget, // a ZIP with ui:options.lookupCategory "address" offers its city and state
  TextWidget,
  textarea: TextareaWidget,
  email: EmailWidget,
  select: SelectWidget,
  SelectWidget,
  radio: RadioWidget,
  checkbox: CheckboxWidget,
  CheckboxWidget,
  date: DateWidget,
  phone: PhoneWidget,
  file: LazyFileWidget, // the uploader itself loads for a logged-in applicant
  hidden: HiddenWidget,
  schoolSearch: LazySchoolSearchWidget, // the name of a school block, set by fields/SchoolField.tsx
};

export const fields: RegistryFieldsType & Record<FieldName, unknown> = {
  school: SchoolField,
  monthYear: MonthYearField,
  checkGroup: CheckGroupField,
};

const defaults = getDefaultRegistry().templates;

export const templates: Partial<TemplatesType> = {
  FieldTemplate,
  ObjectFieldTemplate,
  TitleFieldTemplate,
  DescriptionFieldTemplate,
  FieldErrorTemplate,
  FieldHelpTemplate,
  ErrorListTemplate,
  ButtonTemplates: { ...defaults.ButtonTemplates, SubmitButton },
};
