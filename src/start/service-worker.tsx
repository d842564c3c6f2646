import { createRoot } from 'react-dom/client';
import { registerSW } from 'virtual:pwa-register';
import { UpdatePrompt } from '../app/update-prompt';

// Registers the service worker that precaches the built app (offline after the first visit). A new
// version waits until the user chooses Reload in the prompt: code is never swapped under a running screen.
export function registerServiceWorker(): void {
  let prompted = false;
  const updateServiceWorker = registerSW({
    immediate: true,
    onNeedReload() {
      // reloaded by applyUpdate: workbox-window alone reloads only a page that started under a service worker
    },
    onNeedRefresh() {
      if (prompted) return;
      prompted = true;
      const host = document.createElement('div');
      document.body.append(host);
      createRoot(host).render(<UpdatePrompt onReload={applyUpdate} />);
    },
  });

  // The waiting version takes over, then the page reloads into it.
  function applyUpdate(): Promise<void> {
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
    return updateServiceWorker(true);
  }
}
