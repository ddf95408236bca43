import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { ImageView } from '@shop/shared/catalog';
import { cn } from '../../../components/ui/cn.ts';

/** Product images: arrow keys and swipes change the picture; thumbnails below. */
export function Gallery({ images, name }: { images: readonly ImageView[]; name: string }) {
  const [index, setIndex] = useState(0);
  const start = useRef<number | null>(null);
  const count = images.length;
  const go = (next: number) => setIndex(((next % count) + count) % count);
  const current = images[index];

  if (!current) {
    return (
      <div className="flex aspect-[4/5] items-center justify-center rounded-xl border border-line bg-surface text-ink-muted">
        尚無商品照片
      </div>
    );
  }
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight') go(index + 1);
    else if (e.key === 'ArrowLeft') go(index - 1);
    else return;
    e.preventDefault();
  };
  const onPointerDown = (e: PointerEvent) => {
    start.current = e.clientX;
  };
  const onPointerUp = (e: PointerEvent) => {
    if (start.current === null) return;
    const dx = e.clientX - start.current;
    start.current = null;
    if (Math.abs(dx) > 40) go(index + (dx < 0 ? 1 : -1));
  };

  return (
    <section aria-roledescription="carousel" aria-label={`${name} 商品照片`} className="flex flex-col gap-3">
      <div
        tabIndex={0}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (start.current = null)}
        className="relative aspect-[4/5] touch-pan-y overflow-hidden rounded-xl border border-line bg-surface select-none"
        aria-label={count > 1 ? `第 ${index + 1} 張，共 ${count} 張；可用左右方向鍵切換` : undefined}
      >
        <img
          key={current.src}
          src={current.src}
          srcSet={current.srcSet}
          sizes="(min-width: 1024px) 560px, 100vw"
          width={current.width}
          height={current.height}
          alt={current.alt}
          draggable={false}
          // The product page's largest paint: fetched first.
          fetchPriority="high"
          className="size-full object-cover"
        />
        {count > 1 && (
          <>
            <button
              type="button"
              onClick={() => go(index - 1)}
              aria-label="上一張"
              className="absolute top-1/2 left-2 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-surface/85 text-ink shadow hover:bg-surface"
            >
              ‹
            </button>
            <button
              type="button"
              onClick={() => go(index + 1)}
              aria-label="下一張"
              className="absolute top-1/2 right-2 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-surface/85 text-ink shadow hover:bg-surface"
            >
              ›
            </button>
            <p
              className="tabular absolute right-3 bottom-3 rounded-full bg-ink/60 px-2.5 py-0.5 text-xs text-white"
              aria-hidden="true"
            >
              {index + 1} / {count}
            </p>
          </>
        )}
      </div>
      {count > 1 && (
        <ul className="flex gap-2" aria-label="選擇照片">
          {images.map((img, i) => (
            <li key={img.src}>
              <button
                type="button"
                onClick={() => setIndex(i)}
                aria-label={`第 ${i + 1} 張：${img.alt}`}
                aria-current={i === index}
                className={cn(
                  'block w-16 overflow-hidden rounded-md border-2 sm:w-20',
                  i === index ? 'border-tea' : 'border-transparent opacity-70 hover:opacity-100',
                )}
              >
                <img
                  src={img.src}
                  alt=""
                  width={img.width}
                  height={img.height}
                  loading="lazy"
                  className="aspect-[4/5] w-full object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
