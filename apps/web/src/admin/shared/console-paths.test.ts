import { describe, expect, it } from 'vitest';

// Every console source file, as text (tests may keep literal paths).
const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

describe('console links', () => {
  it('come from adminPath: no console file writes an /admin path by hand', () => {
    const offenders = Object.entries(sources).flatMap(([file, text]) =>
      text
        .split('\n')
        .map((line, i) => ({ file, line: i + 1, text: line.trim() }))
        .filter(({ text }) => /['"`]\/admin(?:[/?'"`]|$)/.test(text)),
    );
    expect(Object.keys(sources).length).toBeGreaterThan(40);
    expect(offenders).toEqual([]);
  });
});
