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
