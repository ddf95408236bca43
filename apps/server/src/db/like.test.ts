import { describe, expect, it } from 'vitest';
import { containsPattern, likeEscape, prefixPattern } from './like.ts';

describe('LIKE patterns', () => {
  it("takes the text's own wildcards and backslashes literally", () => {
    expect(likeEscape('50%_off\\now')).toBe('50\\%\\_off\\\\now');
  });

  it('matches anywhere or at the start', () => {
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(prefixPattern('100%')).toBe('100\\%%');
  });
});
