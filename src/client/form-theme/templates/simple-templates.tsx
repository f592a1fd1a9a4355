import type { DescriptionFieldProps, FieldErrorProps, TitleFieldProps } from '@rjsf/utils';

/** Titles and descriptions are drawn by our field and object templates; errors by the field template. */
export function TitleFieldTemplate(_props: TitleFieldProps) {
  return null;
}

export function DescriptionFieldTemplate(_props: DescriptionFieldProps) {
  return null;
}

export function FieldErrorTemplate(_props: FieldErrorProps) {
  return null;
}

export function ErrorListTemplate() {
  return null;
}

export function FieldHelpTemplate() {
  return null;
}

export function SubmitButton() {
  return null;
}
