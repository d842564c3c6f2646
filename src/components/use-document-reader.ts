import { useCallback, useEffect, useRef, useState } from 'react';
import type { DocumentView } from '../../workers/api';
import { previewType, safeFileType } from '../../workers/core/file-types';
import { errorName, userMessage } from '../ledger/error-message';
import { useLedger } from '../ledger/use-ledger';

export interface DocumentPreview {
  document: DocumentView;
  url: string; // blob: URL of the decrypted bytes
  type: string; // what the page shows it as: a PDF or an image type of the accepted list, agreeing with its name
}

export interface DocumentReader {
  busyId: string | null; // the document being read
  error: { documentId: string; message: string } | null;
  preview: DocumentPreview | null;
  previewShown: boolean;
  open: (document: DocumentView) => Promise<void>;
  download: (document: DocumentView) => Promise<void>;
  closePreview: () => void;
  previewClosed: () => void; // after the modal's exit transition: the URL can go
  clearError: () => void;
}

const DOWNLOAD_URL_LIFETIME_MS = 60_000; // the browser has started the download long before this

// Images and PDFs whose type agrees with their name open in the browser; any other file can only be downloaded.
export function canPreview(document: DocumentView): boolean {
  return previewType(document.fileName, document.fileType) !== null;
}

function readFailure(error: unknown, document: DocumentView): string {
  if (errorName(error) === 'IntegrityError') {
    const detail = userMessage(error, 'its bytes do not match its content id').replace(/\.$/, '');
    return `Integrity check failed for “${document.fileName}”: ${detail}. The file was not opened.`;
  }
  return userMessage(error, `"${document.fileName}" could not be opened. Please try again.`);
}

// Bytes are decrypted and checked against their content id in the worker; here they only become a blob URL.
export function useDocumentReader(): DocumentReader {
  const service = useLedger();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [error, setError] = useState<DocumentReader['error']>(null);
  const [preview, setPreview] = useState<DocumentPreview | null>(null);
  const [previewShown, setPreviewShown] = useState(false);
  const urls = useRef(new Set<string>());
  const inFlight = useRef(false);

  useEffect(() => {
    const owned = urls.current;
    return () => {
      for (const url of owned) URL.revokeObjectURL(url);
      owned.clear();
    };
  }, []);

  const release = useCallback((url: string) => {
    URL.revokeObjectURL(url);
    urls.current.delete(url);
  }, []);

  const read = useCallback(
    async (document: DocumentView, handle: (url: string, content: DocumentView) => void) => {
      if (inFlight.current) return;
      inFlight.current = true;
      setBusyId(document.id);
      setError(null);
      try {
        const content = await service.readDocument(document.id);
        // never the stored type as given: a "scan.pdf" stored as text/html would run as a page of this origin
        const type = safeFileType(content.document.fileName, content.document.fileType);
        const url = URL.createObjectURL(new Blob([content.bytes], { type }));
        urls.current.add(url);
        handle(url, content.document);
      } catch (caught) {
        setError({ documentId: document.id, message: readFailure(caught, document) });
      } finally {
        inFlight.current = false;
        setBusyId(null);
      }
    },
    [service],
  );

  const save = useCallback(
    (url: string, fileName: string) => {
      const link = window.document.createElement('a');
      link.href = url;
      link.download = fileName;
      link.rel = 'noopener';
      link.click();
      setTimeout(() => release(url), DOWNLOAD_URL_LIFETIME_MS);
    },
    [release],
  );

  // Judged on the file as read, not as listed: a type outside the preview list is downloaded instead.
  const open = useCallback(
    (document: DocumentView) =>
      read(document, (url, content) => {
        const type = previewType(content.fileName, content.fileType);
        if (!type) return save(url, content.fileName);
        setPreview({ document, url, type });
        setPreviewShown(true);
      }),
    [read, save],
  );

  // saved by the name as read: a name sealed under a key that came with this read is open by now
  const download = useCallback(
    (document: DocumentView) => read(document, (url, content) => save(url, content.fileName)),
    [read, save],
  );

  const closePreview = useCallback(() => setPreviewShown(false), []);

  const previewClosed = useCallback(() => {
    setPreview((current) => {
      if (current) release(current.url);
      return null;
    });
  }, [release]);

  const clearError = useCallback(() => setError(null), []);

  return { busyId, error, preview, previewShown, open, download, closePreview, previewClosed, clearError };
}
