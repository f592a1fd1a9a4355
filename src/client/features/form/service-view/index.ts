import type { RegistryFieldsType, RegistryWidgetsType } from '@rjsf/utils';
import type { FieldName, WidgetName } from '../../../../shared/form/widget-names.ts';
import { ServiceCheckGroupField, ServiceMonthYearField, ServiceSchoolField } from './ServiceFields.tsx';
import { ServiceCheckboxWidget, ServiceChoiceWidget, ServiceFileWidget, ServiceTextWidget } from './ServiceWidgets.tsx';

/** The service view's theme: the same schemas, read-only text instead of controls. */
export const serviceWidgets: RegistryWidgetsType & Record<WidgetName, unknown> = {
  text: ServiceTextWidget,
  TextWidget: ServiceTextWidget,
  textarea: ServiceTextWidget,
  email: ServiceTextWidget,
  select: ServiceTextWidget,
  SelectWidget: ServiceTextWidget,
  radio: ServiceChoiceWidget,
  checkbox: ServiceCheckboxWidget,
  CheckboxWidget: ServiceCheckboxWidget,
  date: ServiceTextWidget,
  phone: ServiceTextWidget,
  internationalPhone: ServiceTextWidget,
  file: ServiceFileWidget,
  hidden: () => null,
  zipLookup: ServiceTextWidget,
  postalCode: ServiceTextWidget,
};

export const serviceFields: RegistryFieldsType & Record<FieldName, unknown> = {
  school: ServiceSchoolField,
  monthYear: ServiceMonthYearField,
  checkGroup: ServiceCheckGroupField,
};
