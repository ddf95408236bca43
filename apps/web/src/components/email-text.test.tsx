import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { EmailText } from './email-text.tsx';

describe('EmailText', () => {
  it('lets a long address wrap before its @ and dots only, never mid-word', () => {
    const { container } = render(<EmailText email="walkthrough.long.address@example-tea-house.com.tw" />);
    const span = container.firstElementChild as HTMLElement;
    expect(span.textContent).toBe('walkthrough.long.address@example-tea-house.com.tw');
    expect(span.className).not.toContain('break-all');
    // A break opportunity sits before the @ and before every dot, nowhere else.
    const after = [...span.querySelectorAll('wbr')].map((w) => w.nextSibling?.textContent?.[0]);
    expect(after).toEqual(['.', '.', '@', '.', '.']);
  });
});
