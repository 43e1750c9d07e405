/**
 * The receipt renderer's thread (render-thread.ts): lays out each receipt it is sent and answers
 * its bytes, one at a time, so that a slow layout never holds up the request thread.
 */
import { parentPort } from 'node:worker_threads';
import { renderReceipt, type ReceiptInput } from './receipt.renderer.js';

const port = parentPort!;
port.on('message', (m: { id: number; input: ReceiptInput }) => {
  renderReceipt(m.input).then(
    (pdf) => port.postMessage({ id: m.id, pdf: new Uint8Array(pdf) }),
    (error: unknown) => port.postMessage({ id: m.id, error: (error as Error).message ?? String(error) }),
  );
});
