import type { HTMLAttributes } from 'react';
import { cn } from './cn.ts';

export function Card({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={cn('rounded-lg border border-line bg-surface p-5 shadow-card sm:p-6', className)}
      {...rest}
    />
  );
}
