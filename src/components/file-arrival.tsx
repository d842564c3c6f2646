import type { FileArrival } from '../../workers/api';

const KB = 1024;
const MB = 1024 * KB;

// Both amounts in the total's unit: "4.0 of 10.0 MB", "0.2 of 0.4 KB", "0 of 900 B".
function amounts(received: number, total: number): string {
  if (total >= MB) return `${(received / MB).toFixed(1)} of ${(total / MB).toFixed(1)} MB`;
  if (total >= KB) return `${(received / KB).toFixed(1)} of ${(total / KB).toFixed(1)} KB`;
  return `${received} of ${total} B`;
}

// What a file still on its way from another device shows, e.g. "Arriving from another device: 40% (4.0 of 10.0 MB)".
export function arrivalWords({ receivedBytes, totalBytes }: FileArrival): string {
  const percent = totalBytes > 0 ? Math.floor((receivedBytes / totalBytes) * 100) : 0;
  return `Arriving from another device: ${percent}% (${amounts(receivedBytes, totalBytes)})`;
}

interface FileArrivalProgressProps {
  arrival: FileArrival;
  id: string; // the Open and Download buttons point here for why they are disabled
}

// The words and a real progress bar named by them.
export function FileArrivalProgress({ arrival, id }: FileArrivalProgressProps) {
  return (
    <span className="document-arrival">
      <span id={id} className="document-arrival-words">
        {arrivalWords(arrival)}
      </span>
      <progress
        aria-labelledby={id}
        max={Math.max(arrival.totalBytes, 1)}
        value={Math.min(arrival.receivedBytes, arrival.totalBytes)}
      />
    </span>
  );
}
