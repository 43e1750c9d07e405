// pdfmake 0.3 ships no types; the few parts the receipt renderer uses.
declare module 'pdfmake' {
  interface OutputDocument {
    getBuffer(): Promise<Buffer>;
  }
  interface VirtualFs {
    writeFileSync(name: string, content: Buffer | Uint8Array): void;
    existsSync(name: string): boolean;
  }
  interface FontFaces {
    normal: string;
    bold: string;
    italics: string;
    bolditalics: string;
  }
  interface PdfMake {
    virtualfs: VirtualFs;
    setFonts(fonts: Record<string, FontFaces>): void;
    setUrlAccessPolicy(policy: (url: string) => boolean): void;
    setLocalAccessPolicy(policy: (path: string) => boolean): void;
    createPdf(docDefinition: Record<string, unknown>, options?: Record<string, unknown>): OutputDocument;
  }
  const pdfmake: PdfMake;
  export default pdfmake;
}
