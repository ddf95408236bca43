import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { SiteHeader } from './site-header.tsx';

describe('the site header on a phone', () => {
  it('closes the menu on Escape and gives the focus back to the menu button', async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter initialEntries={['/shipping']}>
        <SiteHeader cartCount={0} isLogin={false} />
      </MemoryRouter>,
    );
    await user.click(screen.getByRole('button', { name: '開啟選單' }));
    const menu = screen.getByRole('navigation', { name: '行動版選單' });
    menu.querySelector('a')!.focus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('navigation', { name: '行動版選單' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '開啟選單' }));
  });

  it('closes the search box on Escape too', async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <SiteHeader cartCount={0} isLogin={false} />
      </MemoryRouter>,
    );
    await user.click(screen.getByRole('button', { name: '搜尋商品' }));
    expect(screen.getByRole('search')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('search')).toBeNull();
  });
});
