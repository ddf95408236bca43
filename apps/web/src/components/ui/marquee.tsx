import type { CSSProperties } from 'react';
import { Link } from 'react-router';
import { MOTION } from '../../config/motion.ts';

export interface MarqueeItem {
  text: string;
  href?: string | undefined;
}

/**
 * The announcement marquee (20 s a loop, no delay, forever: `MOTION` in config/motion.ts). It pauses while hovered or
 * while a link inside has focus, and stands still for visitors who ask for reduced motion.
 */
export function Marquee({ items, label }: { items: readonly MarqueeItem[]; label: string }) {
  const { durationS, delayS, loop } = MOTION.marquee;
  const row = (copy: number) => (
    <ul className="flex shrink-0 items-center" aria-hidden={copy > 0 ? true : undefined}>
      {items.map((item, i) => (
        <li key={`${copy}-${i}`} className="flex items-center px-6 whitespace-nowrap">
          <span aria-hidden="true" className="mr-3 text-amber">
            ●
          </span>
          {item.href ? (
            <Link
              to={item.href}
              tabIndex={copy > 0 ? -1 : undefined}
              className="hover:underline focus-visible:underline"
            >
              {item.text}
            </Link>
          ) : (
            item.text
          )}
        </li>
      ))}
    </ul>
  );
  return (
    <section
      aria-label={label}
      className="group overflow-hidden border-b border-line bg-tea-dark text-sm text-white"
    >
      <div
        data-testid="marquee-track"
        className="marquee-track flex w-max py-2.5 group-hover:[animation-play-state:paused] group-focus-within:[animation-play-state:paused] motion-reduce:w-full motion-reduce:flex-wrap"
        style={
          {
            '--marquee-duration': `${durationS}s`,
            '--marquee-delay': `${delayS}s`,
            '--marquee-iterations': loop === 0 ? 'infinite' : String(loop),
          } as CSSProperties
        }
      >
        {row(0)}
        <div className="flex motion-reduce:hidden">{row(1)}</div>
      </div>
    </section>
  );
}
