import './index.css';

/**
 * The page's first script (docs/decisions/024-server-rendering.md). A page the server rendered is
 * painted first and its app code is loaded after that paint: the content shows as soon as the HTML
 * and the stylesheet are here, whatever the size of the code. A page that arrived as an empty shell
 * starts its code at once.
 */
// Watched from the first script: a picture of the server's page can fail before the app's code is here.
lazyStorageReadRetry();

const start = () => void import('./boot.tsx');
if (document.getElementById('ssr-state')) requestAnimationFrame(() => setTimeout(start, 0));
else start();

/**
 * Pictures from the storage that fail to load are tried again (features/storage/read-retry.ts).
 * Its code is fetched only when a picture first fails, so a visit where every picture loads never
 * downloads it; the first failure is handed over once it is installed.
 */
function lazyStorageReadRetry(): void {
  const install = (failed: HTMLImageElement[]) => {
    document.removeEventListener('error', first, true);
    void import('./features/storage/read-retry.ts').then(({ installStorageReadRetry }) => {
      installStorageReadRetry();
      for (const img of failed) img.dispatchEvent(new Event('error'));
    });
  };
  function first(event: Event) {
    if (event.target instanceof HTMLImageElement) install([event.target]);
  }
  document.addEventListener('error', first, true);
  // A server-rendered page's pictures started loading with the HTML: some may have failed already.
  const broken = [...document.images].filter(
    (img) => img.complete && img.naturalWidth === 0 && (img.currentSrc || img.src).includes('/api/storage/'),
  );
  if (broken.length > 0) install(broken);
}
