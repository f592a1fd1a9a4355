import type { RegistryFieldsType, RegistryWidgetsType } from '@rjsf/utils';
import type { FieldName, WidgetName } from '../../shared/form/widget-names.ts';
import LazyFileWidget from '../features/documents/widgets/LazyFileWidget.tsx';
import type { FormRegistry } from '../features/form/form-registry-context.ts';
import LazySchoolSearchWidget from '../features/lookups/LazySchoolSearchWidget.tsx';
import SchoolField from '../features/lookups/SchoolField.tsx';
import { SCHOOL_SEARCH_WIDGET } from '../features/lookups/school-parts.ts';
import PostalCodeWidget from '../features/lookups/PostalCodeWidget.tsx';
import ZipLookupWidget from '../features/lookups/ZipLookupWidget.tsx';
import { fields as themeFields, templates, widgets as themeWidgets } from '../form-theme/index.ts';
import { serviceFields, serviceWidgets } from '../features/form/service-view/index.ts';

/**
 * The registry the form pages render with: the theme's generic widgets, fields and
 * templates, and the app's own from their features. Every name a .ui.json may use
 * (src/shared/form/widget-names.ts) is provided, or this does not compile.
 */
const widgets: RegistryWidgetsType & Record<WidgetName, unknown> = {
  ...themeWidgets,
  file: LazyFileWidget, // the uploader itself loads for a logged-in applicant
  zipLookup: ZipLookupWidget, // on the first page (the home address): not lazy, it would only add a round trip
  postalCode: PostalCodeWidget,
  [SCHOOL_SEARCH_WIDGET]: LazySchoolSearchWidget, // the name of a school block, set by SchoolField
};

const fields: RegistryFieldsType & Record<FieldName, unknown> = {
  ...themeFields,
  school: SchoolField,
};

export const formRegistry: FormRegistry = {
  edit: { widgets, fields, templates },
  // the service view: the same schemas, read-only text instead of controls
  view: { widgets: serviceWidgets, fields: serviceFields, templates },
};
