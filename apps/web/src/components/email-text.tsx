import { Fragment } from 'react';
import { cn } from './ui/cn.ts';

/**
 * An e-mail address that wraps only before its @ and its dots, never in the middle of a word
 * (`break-all` cut 「example」 into 「exam」「ple」); a part still too long for its box breaks as a
 * last resort only (overflow-wrap: anywhere).
 */
export function EmailText({ email, className }: { email: string; className?: string }) {
  const parts = email.split(/(?=[@.])/);
  return (
    <span className={cn('[overflow-wrap:anywhere]', className)}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
