import { inflateSync } from 'node:zlib';

/**
 * The embedded files of a PDF (ISO 32000 §7.11.4, `/Type /EmbeddedFile` streams), read without a
 * PDF library: enough for the receipts this service writes (pdfkit: direct lengths, FlateDecode
 * or no filter). What `audit receipt` reads a receipt's proof from.
 */
export function embeddedFiles(pdf: Buffer): Buffer[] {
  const text = pdf.toString('latin1');
  const found: Buffer[] = [];
  // An object's dictionary up to its stream keyword, never crossing into another object.
  const objects = /\d+\s+\d+\s+obj\s*<<((?:(?!endobj)[\s\S])*?)>>\s*stream\r?\n/g;
  for (let m = objects.exec(text); m; m = objects.exec(text)) {
    const dict = m[1]!;
    if (!/\/Type\s*\/EmbeddedFile\b/.test(dict)) continue;
    const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
    if (!length) continue;
    const start = m.index + m[0].length;
    const raw = pdf.subarray(start, start + Number(length[1]));
    const filter = /\/Filter\s*\/(\w+)/.exec(dict)?.[1];
    if (filter === undefined) found.push(Buffer.from(raw));
    else if (filter === 'FlateDecode') {
      try {
        found.push(inflateSync(raw));
      } catch {
        // not a stream this reader can open: skipped
      }
    }
  }
  return found;
}
