// Every record kind's module, named once: the README's list of clear fields is read from here
// (tests/unit/clear-fields-readme.test.ts).
import type { SealedShape } from './shape';
import { FILE, UPLOAD } from './upload';

export const CLEAR_KINDS: readonly { name: string; kind: SealedShape }[] = [
  { name: 'upload (`prescription`, `test_report`)', kind: UPLOAD },
  { name: "an upload's file", kind: FILE },
];
