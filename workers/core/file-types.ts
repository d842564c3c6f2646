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

// What a stored file is opened as when its type is not one of its extension's: a type no browser renders.
export const UNSAFE_FILE_TYPE = 'application/octet-stream';

// The types the app shows in its own page (a PDF viewer or an image); every other file is only downloaded.
export const PREVIEW_TYPES: readonly string[] = ['application/pdf', 'image/png', 'image/jpeg'];

// Lower-case extension with its dot, '' when none (text-input.ts has the same, but imports this module).
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

// The type an upload stores for an accepted name: its extension's usual type ('' for any other name).
export function canonicalFileType(name: string): string {
  return MIME_TYPES[extensionOf(name)]?.[0] ?? '';
}

// The chain's rule (docs/decisions/upload-checks.md): a stored type is one a browser gives for the file's extension.
// An extension outside the list is the extension rule's to name.
export function fileTypeProblem(name: string, type: string): string | null {
  const extension = extensionOf(name);
  const accepted = MIME_TYPES[extension];
  if (!accepted || accepted.includes(type)) return null;
  return `"${name}" has the type ${JSON.stringify(type.slice(0, 80))}, not one of a ${extension} file`;
}

// The type a stored file is given back with: its extension's usual type when the stored one agrees with it.
export function safeFileType(name: string, type: string): string {
  const accepted = MIME_TYPES[extensionOf(name)];
  return accepted?.includes(type) ? accepted[0] : UNSAFE_FILE_TYPE;
}

// The type to show a stored file as in the page, or null: it is then only downloaded.
export function previewType(name: string, type: string): string | null {
  const safe = safeFileType(name, type);
  return PREVIEW_TYPES.includes(safe) ? safe : null;
}
