import type { EventBus } from '../../plugins/events.ts';
import type { PageDataChange } from '../../plugins/server-pages.ts';
import { onCatalogChange, onListsChange } from '../catalog/service.ts';
import { onContentChange } from '../content/service.ts';
import { onRedirectsChange } from '../redirects/service.ts';
import { onStorefrontChange } from '../site/storefront.ts';

/**
 * Every change to what the shop's pages show, for the pages kept for others (plugins/spa.ts):
 * this instance's writes as they commit, and the other instances' through the event bus (the
 * catalogue, content and redirect modules publish theirs). A write may be heard twice (here and
 * back from the bus): dropping a page twice is harmless. Registered after those modules, so their
 * own caches are dropped first and a page rendered again reads fresh answers.
 */
export function onPageDataChange(events: EventBus, listener: (change: PageDataChange) => void): () => void {
  const everything = () => {
    for (const kind of ['catalog', 'content', 'redirects', 'storefront'] as const) listener({ kind });
  };
  const stops = [
    onCatalogChange((change) =>
      listener(
        change.kind === 'stock' ? { kind: 'products', productIds: change.productIds } : { kind: 'catalog' },
      ),
    ),
    onListsChange((news) =>
      listener(
        news
          ? { kind: 'catalog-lists', shows: news.shows, related: news.related }
          : { kind: 'catalog-lists' },
      ),
    ),
    onContentChange(() => listener({ kind: 'content' })),
    onRedirectsChange(() => listener({ kind: 'redirects' })),
    // The site module reads the footer again first (after a save here, another instance's news or
    // a gap), then tells: a page rendered again shows the new facts.
    onStorefrontChange(() => listener({ kind: 'storefront' })),
    events.subscribeAll((_channel, event) => {
      if (event.type === 'catalog.changed') {
        const ids = event.data.productIds;
        listener(
          Array.isArray(ids) && ids.every((id) => typeof id === 'string')
            ? { kind: 'products', productIds: ids }
            : { kind: 'catalog' },
        );
      } else if (event.type === 'content.changed') listener({ kind: 'content' });
      else if (event.type === 'redirects.changed') listener({ kind: 'redirects' });
    }),
    // News from other instances may have been missed (Redis was away).
    events.onGap(everything),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
