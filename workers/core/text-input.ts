// One rule for every text a user types or names (docs/security.md "Text inputs"): NFC-normalised and trimmed, no hidden
// control or text-direction characters, a stated limit. The worker judges with it; the screens use it before
// the call, so both say the same words.
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_FILE_NAME_LENGTH,
  MAX_REASON_LENGTH,
  MAX_SEARCH_LENGTH,
  MAX_SHARE_NOTE_LENGTH,
  MAX_TAMPER_TITLE_LENGTH,
  MAX_TITLE_LENGTH,
} from './constants';
import { MIME_TYPES, UNKNOWN_MIME_TYPES } from './file-types';

interface TextRule {
  what: string; // the field as messages name it
  max: number; // characters (UTF-16 units, as the fields count them) after normalising
  multiline: boolean; // a text area: line breaks and tabs are text
  required?: string; // the message when it is blank
}

export const TEXT_RULES = {
  title: { what: 'title', max: MAX_TITLE_LENGTH, multiline: false, required: 'Enter a title.' },
  description: { what: 'description', max: MAX_DESCRIPTION_LENGTH, multiline: true },
  reason: { what: 'reason', max: MAX_REASON_LENGTH, multiline: true, required: 'Enter a reason for emergency access.' },
  tamperTitle: { what: 'new title', max: MAX_TAMPER_TITLE_LENGTH, multiline: false, required: 'Enter a new title.' },
  search: { what: 'search', max: MAX_SEARCH_LENGTH, multiline: false },
  note: { what: 'note', max: MAX_SHARE_NOTE_LENGTH, multiline: true },
} as const satisfies Record<string, TextRule>;

export type TextField = keyof typeof TEXT_RULES;

export interface TextCheck {
  text: string; // normalised: what is sent, stored and counted
  problem: string | null; // the worker's message, null when the text is accepted
  blank: boolean; // nothing left once spaces and zero-width characters are removed
}

export interface FileNameProblem {
  name: string; // the name as a message quotes it: cut short, hidden characters spelled out; '' for no name
  reason: string;
}

const NO_NAME = 'A file without a name cannot be uploaded';
const QUOTED_NAME_LENGTH = 60; // characters of an overlong name quoted in a message
// NFC shortens a text at most a few times (a character and its combining marks): far past this, it is too long
const NORMALISE_AT_MOST = 10;
const INVISIBLE = /[\s\u200B-\u200D\u2060\uFEFF]/g; // whitespace and zero-width characters

// C0 and C1 controls and DEL; the bidi embeddings, overrides and isolates (U+202A-202E, U+2066-2069).
function refused(code: number, multiline: boolean): boolean {
  if (multiline && (code === 0x09 || code === 0x0a)) return false;
  return (
    code <= 0x1f || (code >= 0x7f && code <= 0x9f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)
  );
}

function firstRefused(text: string, multiline: boolean): number | undefined {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (refused(code, multiline)) return code;
  }
  return undefined;
}

const codePoint = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

function normalise(value: string, multiline: boolean): string {
  return (multiline ? value.replace(/\r\n?/g, '\n') : value).normalize('NFC').trim();
}

function isBlank(text: string): boolean {
  return text.replace(INVISIBLE, '') === '';
}

export function checkText(field: TextField, value: string): TextCheck {
  const rule: TextRule = TEXT_RULES[field];
  const tooLong = `The ${rule.what} is longer than ${rule.max} characters.`;
  const trimmed = value.trim();
  if (trimmed.length > rule.max * NORMALISE_AT_MOST) return { text: trimmed, problem: tooLong, blank: false };
  const text = normalise(value, rule.multiline);
  const blank = isBlank(text);
  const control = firstRefused(text, rule.multiline);
  let problem: string | null = null;
  if (control !== undefined)
    problem = `The ${rule.what} contains a hidden control or text-direction character (${codePoint(control)}).`;
  else if (blank && rule.required) problem = rule.required;
  else if (text.length > rule.max) problem = tooLong;
  return { text, problem, blank };
}

// The name as a message quotes it: hidden characters spelled out, an overlong name cut short.
function quotedName(name: string): string {
  let shown = '';
  for (let i = 0; i < name.length && shown.length <= QUOTED_NAME_LENGTH; i++) {
    const code = name.charCodeAt(i);
    shown += refused(code, false) ? `[${codePoint(code)}]` : name[i];
  }
  if (shown.length <= QUOTED_NAME_LENGTH) return shown;
  const cut = shown.slice(0, QUOTED_NAME_LENGTH);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`; // never half a surrogate pair
}

export function checkFileName(value: string): { name: string; problem: FileNameProblem | null } {
  const tooLong = `has a name longer than ${MAX_FILE_NAME_LENGTH} characters`;
  const trimmed = value.trim();
  if (trimmed.length > MAX_FILE_NAME_LENGTH * NORMALISE_AT_MOST) {
    return { name: trimmed, problem: { name: quotedName(trimmed), reason: tooLong } };
  }
  const name = normalise(value, false);
  let problem: FileNameProblem | null = null;
  if (firstRefused(name, false) !== undefined) {
    problem = { name: quotedName(name), reason: 'has a hidden control or text-direction character in its name' };
  } else if (isBlank(name)) problem = { name: '', reason: NO_NAME };
  else if (name.length > MAX_FILE_NAME_LENGTH) problem = { name: quotedName(name), reason: tooLong };
  return { name, problem };
}

// A rejection as one message, as the worker words it.
export function fileNameMessage({ name, reason }: FileNameProblem): string {
  return name === '' ? reason : `"${name}" ${reason}`;
}

// Lower-case extension with its dot ('report.PDF' -> '.pdf'); '' when the name has none.
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 || dot === name.length - 1 ? '' : name.slice(dot).toLowerCase();
}

// The MIME type without parameters, lower-case: 'APPLICATION/PDF; x=<b>' -> 'application/pdf'.
export function mimeEssence(type: string): string {
  return type.split(';')[0].trim().toLowerCase();
}

// The type stored for an accepted file: its essence, or the extension's usual type when the browser gave none.
export function storedFileType(name: string, type: string): string {
  const essence = mimeEssence(type);
  if (!UNKNOWN_MIME_TYPES.includes(essence)) return essence;
  return MIME_TYPES[fileExtension(name)]?.[0] ?? 'application/octet-stream';
}

// What search compares, on both sides: NFC, lower case (an NFD query finds an NFC title).
export function foldForSearch(text: string): string {
  return text.normalize('NFC').toLowerCase().normalize('NFC');
}
