import { useState, useSyncExternalStore } from 'react';
import { subscribeUpdateHolds, updateHolds } from '../components/update-holds';

interface UpdatePromptProps {
  onReload: () => Promise<void>; // activates the waiting service worker, which reloads the page
}

// Shown when a new version is installed and waiting: nothing changes until the user reloads, and Reload
// waits for an open emergency session or a running upload to end.
export function UpdatePrompt({ onReload }: UpdatePromptProps) {
  const holds = useSyncExternalStore(subscribeUpdateHolds, updateHolds);
  const [reloading, setReloading] = useState(false);
  const held = holds.length > 0;
  return (
    <div
      className="alert alert-info shadow position-fixed bottom-0 end-0 m-3 z-3 d-flex flex-wrap align-items-center gap-2"
      role="status"
    >
      <span>Update available</span>
      <button
        type="button"
        className="btn btn-primary btn-sm"
        disabled={held || reloading}
        onClick={() => {
          setReloading(true);
          void onReload(); // the page reloads when the new service worker takes over
        }}
      >
        {reloading ? 'Reloading...' : 'Reload'}
      </button>
      {held ? <span className="small w-100">{holds.join(' ')}</span> : null}
    </div>
  );
}
