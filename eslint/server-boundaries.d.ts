// Types for what the server's tests import from server-boundaries.js (a plain ESM file ESLint loads).
import type { Linter } from 'eslint';

/** Files a rule does not fit, and why. */
export interface RuleException {
  readonly files: readonly string[];
  readonly reason: string;
}

export const EXCEPTIONS: Readonly<Record<'no-fastify' | 'sql-in-repos', readonly RuleException[]>>;

declare const blocks: Linter.Config[];
export default blocks;
