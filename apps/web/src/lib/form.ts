import { useState } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { authErrorMessage } from '@shop/shared/auth-errors';
import { ApiError, NETWORK_ERROR_MESSAGE } from './api-error.ts';

/** The zh-TW sentence for an error: the identity code's message, else the server's own message. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return authErrorMessage(error.code) ?? error.message;
  return NETWORK_ERROR_MESSAGE;
}

/**
 * Submits a react-hook-form form to the API: server field errors land beside their fields (the
 * first one focused), anything else becomes one message for the form. Returns the form-level
 * message and a submit handler.
 */
export function useApiSubmit<T extends FieldValues, R>(form: UseFormReturn<T>, submit: (values: T) => Promise<R>, onSuccess: (result: R, values: T) => void) {
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      onSuccess(await submit(values), values);
    } catch (error) {
      const fields = error instanceof ApiError ? error.fields : undefined;
      const known = fields ? Object.entries(fields).filter(([name]) => name in values) : [];
      known.forEach(([name, message], i) => form.setError(name as Path<T>, { type: 'server', message }, { shouldFocus: i === 0 }));
      if (known.length === 0 || (error instanceof ApiError && !['invalid-argument', 'invalid-email'].includes(error.code))) {
        setFormError(errorMessage(error));
      }
    }
  });
  return { formError, setFormError, onSubmit };
}
