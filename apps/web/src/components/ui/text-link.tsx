import { Link, type LinkProps } from 'react-router';
import { cn } from './cn.ts';

export const textLinkClass =
  'text-tea underline decoration-tea/30 underline-offset-4 hover:decoration-tea hover:text-tea-dark';

export function TextLink({ className, ...rest }: LinkProps) {
  return <Link className={cn(textLinkClass, className)} {...rest} />;
}
