import { Button, Callout, Card } from '@blueprintjs/core';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from '../../lib/routing.tsx';
import errorsText from '../../../../schemas/text/errors.json';
import { validateAuthForm, type AuthFormName } from '../../../shared/auth/auth-forms.ts';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { hasErrors, type FieldErrors } from '../../../shared/validation/field-errors.ts';
import { ServerError, messageOf } from '../../lib/api-errors.ts';
import { useScreenTitle } from '../../lib/document-title.ts';
import { useToast } from '../../lib/toasts.tsx';
import { AccountField } from './AccountField.tsx';
import type { AuthFormFile } from './auth-form-file.ts';

interface Props {
  name: AuthFormName;
  form: AuthFormFile;
  initialValues?: Record<string, string>;
  /** values that are not typed here (the reset link's username and id) */
  hiddenValues?: Record<string, string>;
  intro?: ReactNode;
  onSubmit(values: Record<string, string>): Promise<void>;
  /** extra actions under the form (resend, forgot password) */
  children?: (values: Record<string, string>) => ReactNode;
}

/**
 * An account form built from its schema file: labels, inputs, rules and messages all come
 * from schemas/auth. Messages appear after the first submit and then follow the typing.
 */
export function AccountCard({ name, form, initialValues = {}, hiddenValues = {}, intro, onSubmit, children }: Props) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(form.fields.map((field) => [field.key, initialValues[field.key] ?? ''])));
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const toast = useToast();

  // with the heading, over the route's title
  useScreenTitle(form.title);

  const allValues = { ...values, ...hiddenValues };
  const clientErrors = attempted ? validateAuthForm(name, allValues) : {};
  const errors: FieldErrors = { ...serverErrors, ...clientErrors };
  const hiddenFieldErrors = Object.entries(clientErrors)
    .filter(([key]) => !form.fields.some((field) => field.key === key))
    .flatMap(([, messages]) => messages);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    setServerErrors({});
    if (hasErrors(validateAuthForm(name, allValues))) {
      const firstInvalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
      requestAnimationFrame(() => (formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? firstInvalid)?.focus());
      return;
    }
    setBusy(true);
    try {
      await onSubmit(allValues);
    } catch (error) {
      if (error instanceof ServerError && error.fieldErrors) setServerErrors(error.fieldErrors);
      toast({ severity: 'error', title: fillTemplate(errorsText.toast.card_error, { card: form.title }), message: messageOf(error), key: name });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="account-card" elevation={1}>
      <h1 className="page-title">{form.title}</h1>
      {intro ?? (form.intro && <p className="account-intro">{form.intro}</p>)}
      {hiddenFieldErrors.length > 0 && (
        <Callout intent="danger" className="account-callout" role="alert">{hiddenFieldErrors.join(' ')}</Callout>
      )}
      <form ref={formRef} onSubmit={submit} noValidate>
        {/* not shown, read or reached by Tab (display: none), but read by password managers
            (Chromium's "Create Amazing Password Forms": hidden fields for implicit information) */}
        {form.known_fields?.map((field) => (
          <input key={field.key} type={field.input} name={field.key} autoComplete={field.autocomplete} value={hiddenValues[field.key] ?? ''} readOnly hidden />
        ))}
        {form.fields.map((field) => (
          <AccountField
            key={field.key}
            field={field}
            value={values[field.key] ?? ''}
            errors={errors[field.key]}
            ruleErrors={clientErrors[field.key]}
            requiredMessage={form.schema?.errorMessage?.required?.[field.key]}
            onChange={(value) => {
              setValues((current) => ({ ...current, [field.key]: value }));
              setServerErrors((current) => ({ ...current, [field.key]: [] }));
            }}
          />
        ))}
        {form.submit && (
          <Button type="submit" intent="primary" size="large" fill text={form.submit} loading={busy} className="account-submit" />
        )}
      </form>
      {children?.(values)}
      {form.links && (
        <p className="account-links">
          {form.links.map((link) => <Link key={link.to} to={link.to}>{link.text}</Link>)}
        </p>
      )}
    </Card>
  );
}
