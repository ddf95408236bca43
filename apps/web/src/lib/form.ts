import { useState } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { AuthErrorCode, authErrorMessage } from '@shop/shared/auth-errors';
import { ApiError, NETWORK_ERROR_MESSAGE } from './api-error.ts';
import { markFormSaved } from './unsaved-input.ts';

/** How every form validates, shop and console alike: each field as it changes, its error beside it. */
export const FORM_MODE = 'onChange' as const;

/**
 * The zh-TW sentence for an error: the identity code's message, else the server's own message. A
 * refused attempt (429) keeps the server's message, which says how long to wait.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === AuthErrorCode.tooManyRequests && error.message) return error.message;
    return authErrorMessage(error.code) ?? error.message;
  }
  return NETWORK_ERROR_MESSAGE;
}

/**
 * Submits a react-hook-form form to the API: server field errors land beside their fields (the
 * first one focused), anything else becomes one message for the form. When the server explained
 * the error beside a field of this form, that is the only message: the code's general sentence
 * would repeat it, or speak of fields the form never asked for. Only an accepted submit counts as
 * saved for the new-build reload (lib/unsaved-input.ts); a refused one keeps the typed text
 * protected. Returns the form-level message, its code and a submit handler.
 */
export function useApiSubmit<T extends FieldValues, R>(
  form: UseFormReturn<T>,
  submit: (values: T) => Promise<R>,
  onSuccess: (result: R, values: T) => void,
) {
  const [formError, setFormError] = useState<string | null>(null);
  const [formErrorCode, setFormErrorCode] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (values, event) => {
    setFormError(null);
    setFormErrorCode(null);
    try {
      const result = await submit(values);
      markFormSaved(event?.target);
      onSuccess(result, values);
    } catch (error) {
      const fields = error instanceof ApiError ? error.fields : undefined;
      const known = fields ? Object.entries(fields).filter(([name]) => name in values) : [];
      known.forEach(([name, message], i) =>
        form.setError(name as Path<T>, { type: 'server', message }, { shouldFocus: i === 0 }),
      );
      if (known.length === 0) {
        setFormError(errorMessage(error));
        setFormErrorCode(error instanceof ApiError ? error.code : AuthErrorCode.networkRequestFailed);
      }
    }
  });
  return { formError, formErrorCode, setFormError, onSubmit };
}
