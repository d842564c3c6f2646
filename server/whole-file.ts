// Every file of the server's own is written whole: a temporary file, then a rename, so a crash or a full disk
// mid-write leaves the old file, never half of one.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

export function writeWhole(file: string, text: string, mode = 0o600): void {
  const temporary = `${file}.tmp`;
  try {
    writeFileSync(temporary, text, { mode });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true }); // a full disk may have left part of it
    throw error;
  }
}

// The JSON in `file`, or an error that names the file, what is wrong with it and what to do.
export function readJsonFile(file: string, remedy: string): unknown {
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '') throw new Error(`${file} is damaged: it is empty (0 bytes). ${remedy}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${file} is damaged: it is not JSON. ${remedy}`);
  }
}
