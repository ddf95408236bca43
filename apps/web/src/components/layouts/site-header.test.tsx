import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SiteHeader } from './site-header.tsx';

describe('SiteHeader', () => {
  it('closes the phone menu with Escape, as a dialog closes', async () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <SiteHeader cartCount={0} isLogin={false} />
      </MemoryRouter>,
    );
    await userEvent.click(screen.getByRole('button', { name: '開啟選單' }));
    expect(screen.getByRole('button', { name: '關閉選單' }).getAttribute('aria-expanded')).toBe('true');
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: '開啟選單' }).getAttribute('aria-expanded')).toBe('false');
  });
});
