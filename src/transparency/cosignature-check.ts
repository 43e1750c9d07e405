import { createHash } from 'node:crypto';
import { NoteError, parseVerifierKey, signedTime, type Verifier } from './note.js';

/** A witness of this process: its cosignature vkey and the verifier made from it. */
export interface CosigningWitness {
  vkey: string;
  verifier: Verifier;
}

/** Answers remembered before the memory is cleared: a few per tenant's newest checkpoints. */
export const REMEMBERED = 100_000;

/**
 * Checks stored cosignature lines (transparency.cosignatures) over their checkpoint by the keys
 * their rows name. The relay stores only lines that verify, so a line that does not was written
 * into the database by someone else: it counts as no cosignature, and is not served. Each answer
 * is remembered, so a line is verified once a process.
 */
export class CosignatureCheck {
  private readonly known = new Map<string, boolean>();
  private readonly parsed = new Map<string, CosigningWitness | null>();

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
   * Of a checkpoint's stored cosignatures (each row's witness vkey `w` and line `l`), the lines to
   * serve: each that verifies by the key its row names (a witness this process asks, or one it
   * asked before); and the witnesses this process asks (vkeys) whose cosignature is among them.
   * A line that does not verify was not written by the relay, and counts for nothing.
   */
  sort(note: string, rows: readonly { w: string; l: string }[] | null): { lines: string; by: Set<string> } {
    const by = new Set<string>();
    let kept = '';
    for (const { w, l } of rows ?? []) {
      const asked = this.witnesses.find((x) => x.vkey === w);
      const witness = asked ?? this.named(w);
      if (!witness || !this.holds(note, l, witness)) continue;
      kept += l;
      if (asked) by.add(w);
    }
    return { lines: kept, by };
  }

  /** A witness by the vkey a row names (one no longer asked), or undefined when it names none. */
  private named(vkey: string): CosigningWitness | undefined {
    let found = this.parsed.get(vkey);
    if (found === undefined) {
      try {
        const verifier = parseVerifierKey(vkey);
        found = verifier.type === 0x04 ? { vkey, verifier } : null;
      } catch (error) {
        if (!(error instanceof NoteError)) throw error;
        found = null;
      }
      if (this.parsed.size >= REMEMBERED) this.parsed.clear();
      this.parsed.set(vkey, found);
    }
    return found ?? undefined;
  }
}
