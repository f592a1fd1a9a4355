import { getDefaultRegistry } from '@rjsf/core';
import type { RegistryFieldsType, RegistryWidgetsType, TemplatesType } from '@rjsf/utils';
import type { FieldName, WidgetName } from '../../shared/form/widget-names.ts';
import CheckGroupField from './fields/CheckGroupField.tsx';
import MonthYearField from './fields/MonthYearField.tsx';
import FieldTemplate from './templates/FieldTemplate.tsx';
import ObjectFieldTemplate from './templates/ObjectFieldTemplate.tsx';
import {
  DescriptionFieldTemplate, ErrorListTemplate, FieldErrorTemplate, FieldHelpTemplate, SubmitButton, TitleFieldTemplate,
} from './templates/simple-templates.tsx';
import CheckboxWidget from './widgets/CheckboxWidget.tsx';
import DateWidget from './widgets/DateWidget.tsx';
import EmailWidget from './widgets/EmailWidget.tsx';
import HiddenWidget from './widgets/HiddenWidget.tsx';
import InternationalPhoneWidget from './widgets/InternationalPhoneWidget.tsx';
import PhoneWidget from './widgets/PhoneWidget.tsx';
import RadioWidget from './widgets/RadioWidget.tsx';
import SelectWidget from './widgets/SelectWidget.tsx';
import TextareaWidget from './widgets/TextareaWidget.tsx';
import TextWidget from './widgets/TextWidget.tsx';

/**
 * Our Blueprint theme for RJSF: generic widgets, fields and templates that read only their
 * props, formContext and the schema. The app's own widgets (file upload, school search, ZIP
 * look-up) live in their features; src/client/app/form-registry.ts composes the registry.
 */
export const widgets = {
  text: TextWidget,
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
  internationalPhone: InternationalPhoneWidget,
  hidden: HiddenWidget,
} satisfies RegistryWidgetsType & Partial<Record<WidgetName, unknown>>;
export const fields = {
  monthYear: MonthYearField,
  checkGroup: CheckGroupField,
} satisfies RegistryFieldsType & Partial<Record<FieldName, unknown>>;
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
