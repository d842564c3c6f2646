// Static data of the upload file checks (docs/decisions/upload-checks.md), shared by the worker's checks and the upload screen's early ones.

// MIME types a browser may give each accepted extension; the first is stored when the browser gives none.
export const MIME_TYPES: Readonly<Record<string, readonly string[]>> = {
  '.pdf': ['application/pdf', 'application/x-pdf'],
  '.jpg': ['image/jpeg', 'image/pjpeg'],
  '.jpeg': ['image/jpeg', 'image/pjpeg'],
  '.png': ['image/png', 'image/x-png'],
  '.doc': ['application/msword'],
  '.docx': ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
};

// What a browser gives when it does not know the type: never a disagreement with the extension.
export const UNKNOWN_MIME_TYPES: readonly string[] = ['', 'application/octet-stream'];
