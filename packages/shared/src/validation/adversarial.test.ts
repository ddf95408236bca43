import { describe, expect, it } from 'vitest';
import { checkRule, RULE_NAMES, validateValue, type FileLike, type RuleName } from './rules.ts';
import { textField } from './zod.ts';

// The shared package compiles with neither DOM nor Node types; both runtimes have `performance`.
declare const performance: { now(): number };

/**
 * Every rule of the shared set must take time linear in its input: a request body may hold up to
 * 1 MB, and one super-linear pattern on it blocks the server for every shopper. The inputs are
 * the known backtracking shapes, from a deterministic generator (the same strings on every run).
 */

/** Largest string a request can carry (the server's body limit). */
const BODY_LIMIT = 1024 * 1024;
/** Growing sizes: super-linear work shows at the small ones, in milliseconds rather than minutes. */
const SIZES = [1024, 16 * 1024, 128 * 1024, BODY_LIMIT];
const BUDGET_MS = 20;
const TRIES = 3;

/** A few characters from each class the rules distinguish, so runs cross every class boundary. */
const CLASS_SAMPLES = [
  'a',
  'Z',
  '山',
  '\u0301',
  '1',
  '_',
  '-',
  '.',
  '@',
  ' ',
  '\u3000',
  '\t',
  '\n',
  '+',
  ':',
  '/',
  '?',
  '%',
  '"',
  '\\',
  '😀',
  '\u0000',
  ',',
];

/** Families of adversarial strings of about `n` characters. */
const FAMILIES: Record<string, (n: number) => string> = {
  'a@ + "."×N + @': (n) => `a@${'.'.repeat(n)}@`,
  'a@ + "."×N + a': (n) => `a@${'.'.repeat(n)}a`,
  '"a."×N + @': (n) => `${'a.'.repeat(n >> 1)}@`,
  '"a@"×N': (n) => 'a@'.repeat(n >> 1),
  '"@."×N': (n) => '@.'.repeat(n >> 1),
  '"a.b@"×N + !': (n) => `${'a.b@'.repeat(n >> 2)}!`,
  'user@ + "a."×N + "!"': (n) => `user@${'a.'.repeat(n >> 1)}!`,
  '"/"×N + x': (n) => `${'/'.repeat(n)}x`,
  '"1-"×N + x': (n) => `${'1-'.repeat(n >> 1)}x`,
  '"a,"×N': (n) => 'a,'.repeat(n >> 1),
  '"{{"×N + " "': (n) => `${'{{'.repeat(n >> 1)} `,
  '"{{" + " "×N': (n) => `{{${' '.repeat(n)}`,
  'http:// + "a"×N + "@"': (n) => `http://${'a'.repeat(n)}@`,
  'https:// + "%"×N': (n) => `https://${'%'.repeat(n)}`,
  '"a"×N + "!" (nested quantifier bait)': (n) => `${'a'.repeat(n)}!`,
  '"aa"×N + "!" (nested quantifier bait)': (n) => `${'aa'.repeat(n >> 1)}!`,
  '"0"×N + "x"': (n) => `${'0'.repeat(n)}x`,
  '"-"+"9"×N + "."': (n) => `-${'9'.repeat(n)}.`,
};
for (const a of CLASS_SAMPLES) {
  for (const b of ['!', '@', ' ', 'a', '.']) {
    if (a !== b)
      FAMILIES[`run of ${JSON.stringify(a)}×N then ${JSON.stringify(b)}`] = (n) =>
        `${a.repeat(Math.max(1, Math.floor(n / a.length)))}${b}`;
  }
}

/** Params that give each rule something to do (the regex one is linear, as every pattern in our code must be). */
const PARAMS: Record<RuleName, string[]> = {
  alpha: [],
  alpha_dash: [],
  alpha_num: [],
  alpha_spaces: [],
  between: ['1', '10'],
  confirmed: ['other'],
  digits: ['10'],
  dimensions: ['800', '600'],
  email: [],
  ext: ['png', 'jpg'],
  image: [],
  integer: [],
  is: ['yes'],
  is_not: ['no'],
  length: ['3'],
  max: ['254'],
  max_value: ['10'],
  mimes: ['image/png'],
  min: ['8'],
  min_value: ['1'],
  not_one_of: ['a', 'b'],
  numeric: [],
  one_of: ['a', 'b'],
  regex: ['^[a-z0-9-]+$'],
  required: [],
  size: ['10'],
  url: [],
};
const FILE_RULES = new Set<RuleName>(['dimensions', 'ext', 'image', 'mimes', 'size']);

/** Best of a few tries, in ms, so a busy machine's pause is not taken for slow code. */
function bestTime(run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < TRIES && best >= BUDGET_MS; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/**
 * Runs `check` on every family at growing sizes; returns "family @ size: ms" for each one over the
 * budget (a family stops growing at its first slow size).
 */
function slowCases(check: (input: string) => unknown): string[] {
  const slow: string[] = [];
  for (const [name, family] of Object.entries(FAMILIES)) {
    for (const size of SIZES) {
      const input = family(size).slice(0, BODY_LIMIT);
      const ms = bestTime(() => check(input));
      if (ms > BUDGET_MS) {
        slow.push(`${name} @ ${input.length} chars: ${ms.toFixed(1)} ms`);
        break;
      }
    }
  }
  return slow;
}

describe('every rule takes linear time on adversarial input up to the body limit', () => {
  // Warm the engine up once, so the first family does not pay for compilation.
  for (const rule of RULE_NAMES)
    checkRule(rule, 'warm-up@example.com', PARAMS[rule], { values: { other: 'x' } });

  for (const rule of RULE_NAMES) {
    it(`${rule} stays under ${BUDGET_MS} ms`, () => {
      const ctx = { values: { other: 'a'.repeat(BODY_LIMIT) } };
      const slow = slowCases((input) => {
        if (FILE_RULES.has(rule)) {
          const file: FileLike = { name: input, type: input, size: input.length, width: 800, height: 600 };
          return checkRule(rule, [file, file], PARAMS[rule], ctx);
        }
        return checkRule(rule, input, PARAMS[rule], ctx);
      });
      expect(slow, slow.join('\n')).toEqual([]);
    });
  }

  // Each case has its own time budget (slowCases); the whole sweep takes a few seconds on a
  // two-core machine, past vitest's 5 s default for one test.
  it('validateValue with the rule strings our forms use stays under budget', () => {
    const specs = [
      'required|email|max:254',
      'required|min:8|max:128',
      'required|max:30',
      'required|min:10|max:2000',
      'required|min:4|max:120',
      'required|digits:10',
    ];
    const slow = specs.flatMap((spec) =>
      slowCases((input) => validateValue(input, spec, '欄位')).map((s) => `${spec}: ${s}`),
    );
    expect(slow, slow.join('\n')).toEqual([]);
  }, 60_000);

  it('a text field schema stays under budget', () => {
    const fields = [
      textField('電子郵件', 'required|email|max:254'),
      textField('密碼', 'required|min:8|max:128', { raw: true }),
      textField('訊息內容', 'required|min:10|max:2000'),
    ];
    const slow = fields.flatMap((field) => slowCases((input) => field.safeParse(input)));
    expect(slow, slow.join('\n')).toEqual([]);
  }, 60_000);
});
