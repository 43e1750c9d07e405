import { decisionWords, utc } from '../../../receipts/receipt.renderer.js';
import type { PublicVerification } from '../../../receipts/receipts.service.js';

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#1a1a1a;background:#f4f4f2}
main{max-width:34rem;margin:0 auto;padding:1.25rem}
.card{background:#fff;border:1px solid #d6d6d2;border-radius:10px;padding:1.25rem 1.25rem 1rem}
.verdict{display:flex;gap:.75rem;align-items:center;margin:0 0 1rem}
.mark{flex:none;width:2.5rem;height:2.5rem;border-radius:50%;display:grid;place-items:center;color:#fff;font-size:1.4rem;font-weight:700}
.valid .mark{background:#1d5c2e}.invalid .mark{background:#8a1c1c}
h1{font-size:1.35rem;margin:0;line-height:1.2}
.valid h1{color:#1d5c2e}.invalid h1{color:#8a1c1c}
.erased .mark{background:#5b6470}.erased h1{color:#3d4550}
p{margin:.5rem 0}
dl{margin:0;display:grid;grid-template-columns:minmax(7rem,auto) 1fr;gap:.45rem 1rem}
dt{color:#5c5c5c;font-size:.9rem}
dd{margin:0;overflow-wrap:anywhere}
.id{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem}
.withdrawn{color:#8a1c1c;font-weight:600}
footer{color:#5c5c5c;font-size:.8rem;margin-top:1rem}
@media (max-width:420px){dl{grid-template-columns:1fr}dt{margin-top:.35rem}}
`;

/**
 * The public verification page: valid, erased (for the record's own hash) or not verified, and for a valid record only its policy,
 * decision, status and time. Never the user reference, IP address, user agent or metadata.
 * Self-contained: inline CSS, no scripts, no external assets.
 */
export function verifyPage(v: PublicVerification): string {
  const rows: [string, string][] = [];
  let body: string;
  if (v.valid || v.erased) {
    const words = decisionWords({ consentGiven: v.consentGiven!, status: v.status! });
    rows.push(
      ['Policy', `${escapeHtml(v.policy!.title)}`],
      ['Version', `${escapeHtml(v.policy!.version)} <span class="id">(${escapeHtml(v.policy!.type)})</span>`],
      ['Decision', escapeHtml(words.decision)],
      [
        'Status',
        v.status === 'withdrawn'
          ? `<span class="withdrawn">Withdrawn on ${escapeHtml(utc(v.withdrawnAt!))}</span>`
          : escapeHtml(words.status),
      ],
      ...(v.collectedAt
        ? ([['Decided at', `${escapeHtml(utc(v.collectedAt))} <span class="id">(on another platform; imported)</span>`]] as [
            string,
            string,
          ][])
        : []),
      ['Recorded at', escapeHtml(utc(v.timestamp!))],
      ['Consent ID', `<span class="id">${escapeHtml(v.consentId)}</span>`],
      [
        'Signed log',
        v.log === null
          ? 'Not sealed into the signed log yet; check again in a moment'
          : v.log.included
            ? `Included in the newest signed checkpoint (leaf ${v.log.leafIndex} of ${v.log.treeSize})`
            : '<span class="withdrawn">Not included in the newest signed checkpoint</span>',
      ],
    );
    body = v.valid
      ? `<p>This consent record is held in the ledger and its hash matches: the record this address names is genuine. This page checks the record, not a printed receipt’s other text: the receipt’s PDF file itself is checked with <code>npx consent-ledger audit receipt</code>.</p>`
      : `<p>A consent record with this hash was recorded in the ledger, but the personal details it covered were erased at the data subject’s request, so its hash can no longer be recomputed. The policy, decision and time below remain on record.</p>`;
  } else if (v.tampered) {
    body = `<p>The ledger holds a consent record with this address and hash, but its stored events fail their integrity checks: an event was written or changed behind the service’s back. Do not rely on this record, and tell the organisation that issued the receipt.</p>`;
  } else {
    body = `<p>No consent record matches this address and hash. The receipt may have been altered, or the address mistyped. Scan the QR code on the receipt again, or ask the organisation that issued it.</p>`;
  }
  const list = rows.length ? `<dl>${rows.map(([k, val]) => `<dt>${k}</dt><dd>${val}</dd>`).join('')}</dl>` : '';
  const title = v.valid ? 'Valid consent record' : v.erased ? 'Record erased' : v.tampered ? 'Record tampered' : 'Not verified';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · Consent receipt verification</title>
<style>${CSS}</style>
</head>
<body>
<main>
<div class="card ${v.valid ? 'valid' : v.erased ? 'erased' : 'invalid'}">
<div class="verdict"><div class="mark" aria-hidden="true">${v.valid ? '✓' : v.erased ? '–' : '✗'}</div><h1 data-testid="verdict" data-valid="${v.valid}" data-erased="${v.erased}" data-tampered="${v.tampered}">${title}</h1></div>
${body}
${list}
<footer>Checked ${escapeHtml(utc(v.verifiedAt))} against the ledger: ${v.erased ? 'the recorded event and its hash chain are checked (the hash itself can no longer be recomputed: its input was erased)' : 'the consent hash is recomputed from the recorded event and its hash chain is checked'}.</footer>
</div>
</main>
</body>
</html>
`;
}
