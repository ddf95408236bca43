import type { DescriptionBlock } from '@shop/shared/catalog-blocks';

/** Renders the structured description; text only, never HTML from the database. */
export function DescriptionBlocks({ blocks }: { blocks: readonly DescriptionBlock[] }) {
  return (
    <div className="flex max-w-2xl flex-col gap-4 text-ink">
      {blocks.map((block, i) => {
        switch (block.type) {
          case 'heading':
            return (
              <h3 key={i} className="mt-2 font-serif text-xl">
                {block.text}
              </h3>
            );
          case 'paragraph':
            return (
              <p key={i} className="leading-[1.85]">
                {block.text}
              </p>
            );
          case 'list':
            return (
              <ul key={i} className="list-disc space-y-1 pl-6">
                {block.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            );
          case 'quote':
            return (
              <blockquote
                key={i}
                className="border-l-4 border-amber/60 bg-amber-soft/50 px-5 py-3 font-serif"
              >
                <p>{block.text}</p>
                {block.cite && <footer className="mt-1 text-sm text-ink-muted">—— {block.cite}</footer>}
              </blockquote>
            );
          case 'steps':
            return (
              <ol key={i} className="grid gap-3 sm:grid-cols-2">
                {block.items.map((step, n) => (
                  <li key={step.title} className="flex gap-3 rounded-lg border border-line bg-surface p-4">
                    <span className="tabular flex size-7 shrink-0 items-center justify-center rounded-full bg-tea text-sm text-white">
                      {n + 1}
                    </span>
                    <div>
                      <p className="font-medium">{step.title}</p>
                      <p className="text-sm text-ink-muted">{step.text}</p>
                    </div>
                  </li>
                ))}
              </ol>
            );
        }
      })}
    </div>
  );
}
