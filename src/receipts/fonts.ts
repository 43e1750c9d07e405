import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import pdfmake from 'pdfmake';

const require = createRequire(import.meta.url);

/**
 * The receipt's fonts, all from npm (nothing on the machine is needed): Noto Sans for Latin,
 * Cyrillic and Greek; Noto Sans SC for Han, kana and CJK punctuation; Noto Sans KR for Hangul.
 * Each character is set in the first of them that has its glyph, so no script comes out blank.
 * pdfkit embeds only the glyphs used (subsets), and only the fonts a receipt uses.
 */
const FACES = {
  NotoSans: [
    '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
    '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  ],
  NotoSansSC: [
    '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
    '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
  ],
  NotoSansKR: [
    '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
    '@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf',
  ],
} as const;

export type FontName = keyof typeof FACES;
export const BASE_FONT: FontName = 'NotoSans';
const ORDER = Object.keys(FACES) as FontName[];

let coverage: { name: FontName; has(codePoint: number): boolean }[] | undefined;

/** Loads the fonts into pdfmake once (lazily: the first receipt pays for it, not the start). */
export function ensureFonts(): void {
  if (coverage) return;
  const loaded: { name: FontName; has(codePoint: number): boolean }[] = [];
  const families: Record<string, { normal: string; bold: string; italics: string; bolditalics: string }> = {};
  for (const name of ORDER) {
    const [regular, bold] = FACES[name].map((spec) => readFileSync(require.resolve(spec)));
    pdfmake.virtualfs.writeFileSync(`${name}-Regular.ttf`, regular!);
    pdfmake.virtualfs.writeFileSync(`${name}-Bold.ttf`, bold!);
    families[name] = {
      normal: `${name}-Regular.ttf`,
      bold: `${name}-Bold.ttf`,
      italics: `${name}-Regular.ttf`,
      bolditalics: `${name}-Bold.ttf`,
    };
    const font = fontkit.create(regular!) as fontkit.Font;
    loaded.push({ name, has: (cp) => font.hasGlyphForCodePoint(cp) });
  }
  pdfmake.setFonts(families);
  // Receipts never fetch or read anything: fonts come from the virtual file system above.
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
  coverage = loaded;
}

const fontFor = (codePoint: number): FontName => {
  // Spaces, line breaks and other controls stay in the run they are in.
  if (codePoint <= 0x20) return BASE_FONT;
  return coverage!.find((f) => f.has(codePoint))?.name ?? BASE_FONT;
};

/**
 * What a receipt does not set as written, whatever its fonts: right-to-left scripts (pdfkit lays
 * text out left to right, so they would read reversed), scripts whose letters must be shaped
 * (Indic, Thai and their neighbours), and the marks that change direction.
 */
const UNSET_RANGES: readonly (readonly [number, number])[] = [
  [0x0590, 0x08ff], // Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic
  [0x0900, 0x0dff], // Devanagari … Sinhala
  [0x0e00, 0x0fff], // Thai, Lao, Tibetan
  [0x1000, 0x109f], // Myanmar
  [0x1780, 0x17ff], // Khmer
  [0x200e, 0x200f], // direction marks
  [0x202a, 0x202e], // direction embeddings and overrides
  [0x2066, 0x2069], // direction isolates
  [0xfb1d, 0xfdff], // Hebrew and Arabic presentation forms
  [0xfe70, 0xfefe], // Arabic presentation forms B
];

/**
 * Characters that print as nothing, or as a break the value does not have: controls, format
 * characters (zero-width space and joiners, soft hyphen, byte order mark, direction marks) and
 * line or paragraph separators. Printed as they are, `alice` and `alice` + U+200B would read alike,
 * and a newline would add a line that reads as part of the record.
 */
const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]$/u;

/**
 * Whether a receipt sets this character as written: not invisible (but for the newlines of JSON
 * laid out on lines, `json`), a font has it, and its script needs no shaping nor right-to-left layout.
 */
const settable = (ch: string, json: boolean): boolean => {
  if (INVISIBLE.test(ch)) return json && ch === '\n';
  const codePoint = ch.codePointAt(0)!;
  return !UNSET_RANGES.some(([a, b]) => codePoint >= a && codePoint <= b) && coverage!.some((f) => f.has(codePoint));
};

/**
 * `text` with every character a receipt cannot set as written (see UNSET_RANGES and INVISIBLE;
 * emoji and rare Han its fonts lack) written as JSON writes an escape: `\u0627`, a pair for one past U+FFFF
 * (`\ud83c\udf6a`), and then a plain value's backslashes as `\\` (`json`: the text is JSON already).
 * The same text when it has none. A reader recomputing a hash reads them as JSON does.
 *
 * @example
 * escapeUnsettable('user🍪-Ω') // 'user\\ud83c\\udf6a-Ω'
 */
export function escapeUnsettable(text: string, options: { json?: boolean } = {}): string {
  ensureFonts();
  const json = options.json === true;
  if ([...text].every((ch) => settable(ch, json))) return text;
  let out = '';
  for (const ch of text) {
    // A plain value read as JSON needs its own backslashes escaped too (JSON text has them already).
    if (ch === '\\' && !json) out += '\\\\';
    else if (settable(ch, json)) out += ch;
    else for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
  }
  return out;
}

/** A text split into runs, each in a font that has its glyphs (pdfmake inline texts). */
export function scriptRuns(text: string): { text: string; font?: FontName }[] {
  ensureFonts();
  const runs: { text: string; font: FontName }[] = [];
  for (const ch of text) {
    const font = ch.codePointAt(0)! <= 0x20 && runs.length > 0 ? runs[runs.length - 1]!.font : fontFor(ch.codePointAt(0)!);
    const last = runs[runs.length - 1];
    if (last && last.font === font) last.text += ch;
    else runs.push({ text: ch, font });
  }
  return runs.map((r) => (r.font === BASE_FONT ? { text: r.text } : r));
}
