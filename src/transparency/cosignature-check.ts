import { createHash } from 'node:crypto';
import { NoteError, signedTime, type Verifier } from './note.js';

/** A witness of this process: its cosignature vkey and the verifier made from it. */
export interface CosigningWitness {
  vkey: string;
  verifier: Verifier;
}

/** Answers remembered before the memory is cleared: a few per tenant's newest checkpoints. */
const REMEMBERED = 100_000;

/**
 * Checks stored cosignature lines (transparency.cosignatures) over their checkpoint by the keys of
 * the witnesses this process asks. The relay stores only lines that verify, so a line by one of
 * those witnesses that does not was written into the database by someone else: it counts as no
 * cosignature, and is not served. Each answer is remembered, so a line is verified once a process.
 */
export class CosignatureCheck {
  private readonly known = new Map<string, boolean>();

  constructor(readonly witnesses: readonly CosigningWitness[]) {}

  /** Whether `line` (one line, ending in a newline) is `witness`'s cosignature of `note` and verifies. */
  holds(note: string, line: string, witness: CosigningWitness): boolean {
    if (!/^\u2014 [^\n]+\n$/.test(line)) return false;
    const key = createHash('sha256').update(witness.vkey).update('\n').update(note).update(line).digest('base64');
    let ok = this.known.get(key);
    if (ok === undefined) {
      try {
        ok = signedTime(`${note}${line}`, witness.verifier) !== null;
      } catch (error) {
        if (!(error instanceof NoteError)) throw error;
        ok = false;
      }
      if (this.known.size >= REMEMBERED) this.known.clear();
      this.known.set(key, ok);
    }
    return ok;
  }

  /**
   * Of a checkpoint's stored lines (concatenated), those to serve: each that verifies by one of the
   * witnesses, or is named for none of them (a witness no longer asked); and the witnesses (vkeys)
   * whose cosignature is among them.
   */
  sort(note: string, lines: string): { lines: string; by: Set<string> } {
    const by = new Set<string>();
    let kept = '';
    for (const line of lines.match(/[^\n]*\n/g) ?? []) {
      const name = /^\u2014 (\S+) /.exec(line)?.[1];
      const named = this.witnesses.filter((w) => w.verifier.name === name);
      const verified = named.filter((w) => this.holds(note, line, w));
      for (const w of verified) by.add(w.vkey);
      if (named.length === 0 || verified.length > 0) kept += line;
    }
    return { lines: kept, by };
  }
}
