import { describe, expect, it } from 'vitest';
import { mailtoHref, telHref } from './links.ts';

const parts = (href: string) => {
  const url = new URL(href);
  return {
    protocol: url.protocol,
    to: decodeURIComponent(url.pathname),
    fields: Object.fromEntries(url.searchParams),
    hash: url.hash,
  };
};

describe('mailtoHref', () => {
  it('writes to an ordinary address as it is', () => {
    expect(mailtoHref('a.b+tag@example.com.tw')).toBe('mailto:a.b%2Btag@example.com.tw');
    expect(parts(mailtoHref('a.b+tag@example.com.tw')).to).toBe('a.b+tag@example.com.tw');
  });

  it('keeps an address that holds ? & = # whole, so it adds no recipient or header', () => {
    for (const address of [
      'x?cc=attacker@evil.example',
      'x@shop.example?bcc=a@evil.example&subject=hi',
      'x#y@example.com',
      'x%0D%0Abcc:a@evil.example',
    ]) {
      expect(parts(mailtoHref(address)), address).toEqual({
        protocol: 'mailto:',
        to: address,
        fields: {},
        hash: '',
      });
    }
  });

  it('adds subject and body encoded, spaces as %20', () => {
    const href = mailtoHref('x?cc=a@evil.example', { subject: '回覆：客服來信 C1', body: 'A & B\n謝謝' });
    expect(href).toContain('subject=%E5%9B%9E%E8%A6%86%EF%BC%9A%E5%AE%A2%E6%9C%8D%E4%BE%86%E4%BF%A1%20C1');
    expect(parts(href)).toEqual({
      protocol: 'mailto:',
      to: 'x?cc=a@evil.example',
      fields: { subject: '回覆：客服來信 C1', body: 'A & B\n謝謝' },
      hash: '',
    });
  });
});

describe('telHref', () => {
  it('keeps digits and a leading +', () => {
    expect(telHref('+886 912-345-678')).toBe('tel:+886912345678');
    expect(telHref('(02) 2345-6789')).toBe('tel:0223456789');
  });

  it('sends an extension to the dialer instead of starting a fragment, and drops anything else', () => {
    const href = telHref('02-2345-6789#123?body=x');
    expect(href).toBe('tel:0223456789%23123');
    expect(new URL(href).hash).toBe('');
    expect(new URL(href).search).toBe('');
  });
});
