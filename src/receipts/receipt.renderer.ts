import type { Actor } from '../common/actor.js';
import pdfmake from 'pdfmake';
import QRCode from 'qrcode';
import type { ConsentView } from '../application/consents/consent.views.js';
import { BASE_FONT, ensureFonts, escapeUnsettable, scriptRuns } from './fonts.js';

export interface ReceiptInput {
  consent: ConsentView;
  receiptId: string;
  /** ISO 8601 UTC: when this receipt was rendered. */
  generatedAt: string;
  /** `{PUBLIC_BASE_URL}/verify/{consentId}?hash={consentHash}`, the QR code's content. */
  verifyUrl: string;
  /** Where the record sits in the tenant's signed transparency log (docs/verifying.md), when sealed. */
  log?: ReceiptLogProof | undefined;
}

/** The inclusion proof's anchor, as printed on the receipt; the whole proof is also attached to the PDF. */
export interface ReceiptLogProof {
  leafIndex: number;
  treeSize: number;
  rootHash: string;
  /** The signed note (C2SP tlog-checkpoint) the proof is for. */
  checkpoint: string;
  /** The record's ConsentRecorded event, its eventHash and inclusion path (GET /consent/:id/proof). */
  event?: object;
  eventHash?: string;
  inclusionPath?: string[];
}

/** The name and format of the JSON file every receipt carries (an embedded file of the PDF). */
export const RECEIPT_PROOF_FILE = 'consent-ledger-proof.json';
export const RECEIPT_PROOF_FORMAT = 'consent-ledger-receipt/1';

/** The URL the QR code encodes (docs/contract.md, Receipts). */
export const verifyUrl = (publicBaseUrl: string, consentId: string, consentHash: string): string =>
  `${publicBaseUrl.replace(/\/+$/, '')}/verify/${consentId}?hash=${consentHash}`;

/** An actor in words: "API key ck_…", "the operator (admin API)", "the operator's command line". */
export const actorWords = (a: Actor): string => {
  if (a.type === 'key') return a.id.startsWith('pk_') ? `publishable key ${a.id} (collected in the browser)` : `API key ${a.id}`;
  if (a.type === 'operator') return 'the operator (admin API)';
  return a.type === 'cli' ? "the operator's command line" : 'the service itself';
};

/** The decision in words, as the receipt and the verification page state it. */
export function decisionWords(c: Pick<ConsentView, 'consentGiven' | 'status'>): { decision: string; status: string } {
  const decision = c.consentGiven ? 'Consent given' : 'Consent refused';
  if (c.status === 'withdrawn') return { decision, status: 'Withdrawn: this consent no longer stands' };
  if (c.status === 'expired') return { decision, status: 'Expired: this consent lapsed and must be asked for again' };
  return { decision, status: c.consentGiven ? 'In force (not withdrawn)' : 'Recorded (a refusal cannot be withdrawn)' };
}

/** "2025-01-31 14:05:09.123 UTC" from an ISO instant: unambiguous, no locale. */
export const utc = (iso: string): string => `${iso.replace('T', ' ').replace(/Z$/, '')} UTC`;

const INK = '#1a1a1a';
const MUTED = '#5c5c5c';
const RULE = '#b8b8b8';

/**
 * A user-supplied value: every script in a font that has it; what no font sets as written (a
 * right-to-left or shaped script, an emoji) as a JSON escape, and said so; breaks anywhere so
 * nothing overflows.
 */
const value = (text: string, extra: Record<string, unknown> = {}, json = false) => {
  const shown = escapeUnsettable(text, { json });
  const note = shown === text ? [] : [{ text: `  ${ESCAPES_NOTE}`, italics: true, color: MUTED, fontSize: 7.5 }];
  return { text: [...scriptRuns(shown), ...note], wordBreak: 'break-all', ...extra };
};
/** Beside a value holding escapes. */
const ESCAPES_NOTE = '(characters this receipt cannot set are written as JSON \\u escapes)';
const mono = (text: string) => ({ text, fontSize: 8.5, wordBreak: 'break-all', characterSpacing: 0.2 });
/** A new cell each time: pdfmake lays out a cell object once, and a reused one prints empty. */
const absent = () => ({ text: 'not recorded', italics: true, color: MUTED });

type Row = [string, Record<string, unknown>];

function section(title: string, rows: Row[]) {
  return [
    { text: title.toUpperCase(), style: 'section' },
    {
      table: {
        widths: [128, '*'],
        body: rows.map(([label, cell]) => [{ text: label, style: 'label' }, cell]),
      },
      layout: {
        hLineWidth: (i: number, node: { table: { body: unknown[] } }) => (i === 0 || i === node.table.body.length ? 0.8 : 0.4),
        vLineWidth: () => 0,
        hLineColor: () => RULE,
        paddingLeft: () => 0,
        paddingRight: () => 6,
        paddingTop: () => 3,
        paddingBottom: () => 3,
      },
    },
  ];
}

/**
 * Renders a consent receipt (A4 PDF): title, the decision and status in words, every field of
 * the record, the policy and both hashes, the generation time, how to verify, and a QR code
 * leading to the public verification page.
 *
 * @example
 * const pdf = await renderReceipt({ consent, receiptId, generatedAt: new Date().toISOString(), verifyUrl: url });
 */
export async function renderReceipt(input: ReceiptInput): Promise<Buffer> {
  ensureFonts();
  const c = input.consent;
  const words = decisionWords(c);
  const withdrawn = c.status === 'withdrawn';
  const qr = await QRCode.toString(input.verifyUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
  const metadata = c.metadata === null ? null : Object.keys(c.metadata).length === 0 ? '{}' : JSON.stringify(c.metadata, null, 2);
  // An erased subject's record keeps its decision, time and hash; its personal fields are gone.
  // A new cell each time: pdfmake lays out a cell object once, and a reused one prints empty.
  const erased = () => ({ text: 'erased at the data subject’s request', italics: true, color: MUTED });

  const banner = {
    table: {
      widths: ['*'],
      body: [
        [
          {
            stack: [
              {
                text: words.decision.toUpperCase(),
                fontSize: 15,
                bold: true,
                color: withdrawn ? '#8a1c1c' : c.consentGiven ? '#1d5c2e' : INK,
              },
              {
                text: withdrawn ? `WITHDRAWN on ${utc(c.withdrawnAt!)}` : words.status,
                fontSize: 10,
                bold: withdrawn,
                color: withdrawn ? '#8a1c1c' : MUTED,
                margin: [0, 2, 0, 0],
              },
            ],
            margin: [8, 6, 8, 6],
          },
        ],
      ],
    },
    layout: {
      hLineWidth: () => 1.2,
      vLineWidth: () => 1.2,
      hLineColor: () => (withdrawn ? '#8a1c1c' : INK),
      vLineColor: () => (withdrawn ? '#8a1c1c' : INK),
    },
    margin: [0, 10, 0, 2],
  };

  const recordRows: Row[] = [
    ['Consent ID', mono(c.id)],
    ['Consent hash (SHA-256)', mono(c.consentHash)],
    ['Decision', { text: words.decision, bold: true }],
    ['Status', { text: words.status, bold: withdrawn }],
    ['Recorded at', { text: [c.timestamp, { text: '  (ISO 8601, UTC)', color: MUTED, fontSize: 8.5 }] }],
  ];
  // Who recorded it, as the ledger names it: an API key by its public id, the operator, its CLI.
  if (c.recordedBy) recordRows.push(['Recorded by', value(actorWords(c.recordedBy))]);
  // An imported decision: when it was made on the platform it came from (part of the hash input).
  if (c.collectedAt) {
    recordRows.push(['Collected at', { text: [c.collectedAt, { text: '  (imported; in the hash input)', color: MUTED, fontSize: 8.5 }] }]);
  }
  if (withdrawn) {
    recordRows.push(['Withdrawn at', { text: utc(c.withdrawnAt!), bold: true }]);
    // The reason is personal data: an erasure takes it with the rest.
    recordRows.push(['Withdrawal reason', c.withdrawalReason ? value(c.withdrawalReason) : c.erased ? erased() : absent()]);
  }
  if (c.erased) {
    recordRows.push(['User reference', erased()], ['IP address', erased()], ['User agent', erased()], ['Metadata', erased()]);
  } else {
    recordRows.push(
      ['User reference', value(c.userReference ?? '')],
      ['IP address', c.ipAddress ? value(c.ipAddress) : absent()],
      ['User agent', c.userAgent ? value(c.userAgent, { fontSize: 9 }) : absent()],
      ['Metadata', value(metadata ?? '{}', { fontSize: 8, lineHeight: 1, preserveLeadingSpaces: true }, true)],
    );
  }

  const doc = {
    pageSize: 'A4',
    pageMargins: [44, 36, 44, 46],
    info: {
      title: `Consent receipt ${c.id}`,
      subject: `${words.decision}: ${c.policyDetails.title} ${c.policyDetails.version}`,
      creator: 'consent-ledger',
      producer: 'consent-ledger',
    },
    defaultStyle: { font: BASE_FONT, fontSize: 9.5, lineHeight: 1.05, color: INK },
    styles: {
      section: { fontSize: 8.5, bold: true, color: MUTED, margin: [0, 10, 0, 3] },
      label: { color: MUTED, fontSize: 8.5 },
    },
    footer: (page: number, pages: number) => ({
      columns: [
        { text: `Receipt ${input.receiptId} · generated ${utc(input.generatedAt)}`, fontSize: 7.5, color: MUTED },
        { text: `Page ${page} of ${pages}`, fontSize: 7.5, color: MUTED, alignment: 'right', width: 70 },
      ],
      margin: [44, 16, 44, 0],
    }),
    content: [
      {
        columns: [
          {
            width: '*',
            stack: [
              { text: 'CONSENT RECEIPT', fontSize: 22, bold: true },
              {
                text: 'Proof of a consent decision recorded in an append-only, hash-chained ledger',
                fontSize: 9,
                color: MUTED,
                margin: [0, 2, 0, 8],
              },
              {
                text: [
                  { text: 'Receipt number  ', color: MUTED, fontSize: 9 },
                  { text: input.receiptId, fontSize: 9 },
                ],
              },
              {
                text: [
                  { text: 'Generated at  ', color: MUTED, fontSize: 9 },
                  { text: utc(input.generatedAt), fontSize: 9 },
                ],
              },
            ],
          },
          {
            width: 104,
            stack: [
              { svg: qr, width: 104 },
              { text: 'Scan to verify', fontSize: 7.5, color: MUTED, alignment: 'center' },
            ],
          },
        ],
        columnGap: 16,
      },
      banner,
      ...section('The record', recordRows),
      ...section('The policy agreed to', [
        ['Title', value(c.policyDetails.title, { bold: true })],
        ['Type', { text: c.policyDetails.type }],
        ['Version', { text: c.policyDetails.version }],
        ['Policy version ID', mono(c.policyVersionId)],
        ['Content hash (SHA-256)', mono(c.policyDetails.contentHash)],
      ]),
      ...section(
        'Transparency log',
        input.log
          ? [
              ['Leaf index', { text: String(input.log.leafIndex) }],
              ['Tree size', { text: String(input.log.treeSize) }],
              ['Root hash (SHA-256)', mono(input.log.rootHash)],
              ['Signed checkpoint', { ...mono(input.log.checkpoint.trimEnd()), fontSize: 7, preserveLeadingSpaces: true }],
            ]
          : [
              [
                'Inclusion',
                {
                  text: 'not yet sealed when this receipt was generated; ask for the proof at GET /api/v1/consent/{id}/proof',
                  italics: true,
                  color: MUTED,
                },
              ],
            ],
      ),
      { text: 'HOW TO VERIFY THIS RECEIPT', style: 'section', margin: [0, 12, 0, 3] },
      {
        ol: [
          {
            text: [
              'Scan the QR code or open ',
              value(input.verifyUrl, { color: INK }),
              '. Without any login, that page says whether the ledger holds a record with this ID and this consent hash, with its policy, decision, status and time; it shows no personal data.',
            ],
          },
          "Or prove it offline: the record's ledger event is leaf number \"Leaf index\" of the tenant's Merkle log (RFC 9162); its inclusion proof leads to the root hash above, which the signed checkpoint commits to. Check the signature with the service's published key (/.well-known/consent-ledger/keys) and `npx consent-ledger audit prove`.",
          // An erased record's personal fields are gone from this receipt too: its hash is proven by the log alone.
          c.erased
            ? "The consent hash cannot be recomputed from this receipt: the personal fields it covers were erased at the data subject's request. The decision, its time and its hash stay proven by the record's ledger event in the signed log (above). The content hash is the SHA-256 of the exact policy text."
            : 'Or recompute it: the consent hash is the SHA-256 of the RFC 8785 canonical JSON of {id, policyVersionId, policyContentHash, userReference, consentGiven, ipAddress, userAgent, metadata, timestamp} as stated here (absent values are null; a \\u escape stands for its character, as in JSON), with collectedAt added for an imported record. The content hash is the SHA-256 of the exact policy text. A withdrawal is a later ledger event: it never changes the consent hash.',
        ],
        fontSize: 8,
        color: MUTED,
        margin: [0, 0, 0, 0],
      },
    ],
  };
  // The proof in machine-readable form, for `npx consent-ledger audit receipt` (docs/receipts.md).
  const attached = {
    format: RECEIPT_PROOF_FORMAT,
    receiptId: input.receiptId,
    consentId: c.id,
    consentHash: c.consentHash,
    generatedAt: input.generatedAt,
    verifyUrl: input.verifyUrl,
    proof: input.log?.event
      ? {
          consentId: c.id,
          event: input.log.event,
          eventHash: input.log.eventHash,
          leafIndex: input.log.leafIndex,
          treeSize: input.log.treeSize,
          inclusionPath: input.log.inclusionPath,
          checkpoint: input.log.checkpoint,
          rootHash: input.log.rootHash,
        }
      : null,
  };
  const files = {
    [RECEIPT_PROOF_FILE]: {
      src: `data:application/json;base64,${Buffer.from(JSON.stringify(attached)).toString('base64')}`,
      name: RECEIPT_PROOF_FILE,
      description: 'The receipt and the inclusion proof of its record in the signed transparency log',
      relationship: 'Supplement',
    },
  };
  return pdfmake.createPdf({ ...doc, files } as typeof doc).getBuffer();
}
