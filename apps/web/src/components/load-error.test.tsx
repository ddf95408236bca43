import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api-error.ts';
import { LoadError } from './load-error.tsx';

describe('LoadError', () => {
  it('says what failed and asks again on 重新載入', async () => {
    const refetch = vi.fn();
    render(
      <LoadError title="訂單暫時無法載入" query={{ error: new TypeError('Failed to fetch'), refetch }} />,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('訂單暫時無法載入');
    await userEvent.click(screen.getByRole('button', { name: '重新載入' }));
    expect(refetch).toHaveBeenCalledOnce();
  });

  it("shows the server's message for an API error", () => {
    render(
      <LoadError
        query={{
          error: new ApiError(503, 'unavailable', '系統忙碌中，請稍後再試'),
          refetch: () => undefined,
        }}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('系統忙碌中，請稍後再試');
  });
});
