import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createKeyFile, writeFileDurably } from '../common/key-file.js';
import { verifyConsistency } from './merkle.js';
import {
  cosignatureLine,
  cosignerVkey,
  isKeyName,
  NoteError,
  openNote,
  parseCheckpoint,
  signerFromSeed,
  type Checkpoint,
  type NoteSigner,
  type Verifier,
} from './note.js';
import { seedBytes } from './signing-seed.js';

/**
 * A witness (c2sp.org/tlog-witness): it cosigns a log's checkpoint only when the checkpoint is
 * signed by a log key it trusts and is consistent with the newest checkpoint of that log it
 * cosigned before, so a log that rolls back or forks its history cannot get a cosignature for it.
 * Its state is a folder: its key (witness.key, mode 0600), its name, and per origin the newest
 * checkpoint it cosigned, each written whole and flushed before it answers.
 */

/** Request bodies larger than this are refused (63 proof lines and a checkpoint fit many times over). */
const MAX_BODY = 64 * 1024;
/** c2sp.org/tlog-witness: at most 63 consistency proof lines. */
const MAX_PROOF_LINES = 63;

export interface WitnessAnswer {
  status: number;
  body: string;
  contentType: string;
}

interface OriginState {
  origin: string;
  treeSize: number;
  /** base64 */
  rootHash: string;
  /** The checkpoint as submitted, with the witness's cosignature line appended. */
  checkpoint: string;
  cosignedAt: string;
}

const text = (status: number, body: string): WitnessAnswer => ({ status, body: `${body}\n`, contentType: 'text/plain; charset=utf-8' });

export class Witness {
  readonly signer: NoteSigner;
  /** `<name>+<hex key id>+<base64(0x04 ‖ public key)>`: what a log (WITNESSES) and an auditor (--witness) are given. */
  readonly vkey: string;
  /** add-checkpoint calls run one at a time: checking the old size and saving the new one is atomic. */
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * Opens (or creates) the witness's state folder. `name` is used when the folder is new; a
   * folder keeps the name it was created with, so the witness's vkey never changes.
   *
   * @example
   * const w = Witness.open('./witness', [parseVerifierKey(logVkey)]);
   * console.log(w.vkey);
   */
  static open(dir: string, logs: readonly Verifier[], name?: string, clock: () => Date = () => new Date()): Witness {
    mkdirSync(join(dir, 'logs'), { recursive: true });
    const wanted = name ?? `${hostname().replace(/[^A-Za-z0-9._-]/g, '-') || 'localhost'}/witness`;
    if (!isKeyName(wanted)) throw new WitnessConfigError(`--name: not a key name (no spaces, no '+'): ${JSON.stringify(wanted)}`);
    const stored = createKeyFile(
      join(dir, 'witness.key'),
      `${JSON.stringify({ name: wanted, seed: randomBytes(32).toString('base64') })}\n`,
    );
    let parsed: { name: string; seed: string };
    try {
      parsed = JSON.parse(stored.text) as { name: string; seed: string };
    } catch {
      throw new WitnessConfigError(`${join(dir, 'witness.key')} is not a witness key file`);
    }
    if (name !== undefined && parsed.name !== name) {
      throw new WitnessConfigError(`the witness in ${dir} is named ${parsed.name}, not ${name}: its name is part of its key`);
    }
    for (const log of logs) {
      if (log.type !== 0x01) throw new WitnessConfigError(`--log ${log.name}: give the log's checkpoint key (type 0x01, its vkey)`);
    }
    return new Witness(dir, signerFromSeed(parsed.name, seedBytes(parsed.seed, 'witness.key')), logs, clock);
  }

  private constructor(
    private readonly dir: string,
    signer: NoteSigner,
    private readonly logs: readonly Verifier[],
    private readonly clock: () => Date,
  ) {
    this.signer = signer;
    this.vkey = cosignerVkey(signer);
  }

  /** The log keys that may sign checkpoints of `origin`: a key named `host` signs `host` and `host/…`. */
  private keysFor(origin: string): Verifier[] {
    return this.logs.filter((k) => origin === k.name || origin.startsWith(`${k.name}/`));
  }

  private statePath(origin: string): string {
    return join(this.dir, 'logs', `${createHash('sha256').update(origin).digest('hex')}.json`);
  }

  /** The newest checkpoint of `origin` this witness cosigned, with its cosignature; null when none. */
  latest(origin: string): OriginState | null {
    try {
      return JSON.parse(readFileSync(this.statePath(origin), 'utf8')) as OriginState;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** POST /add-checkpoint (c2sp.org/tlog-witness): one call at a time. */
  addCheckpoint(body: string): Promise<WitnessAnswer> {
    const run = this.queue.then(() => this.add(body));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private add(body: string): WitnessAnswer {
    const split = body.indexOf('\n\n');
    if (split < 0) return text(400, 'the body is an old size line, consistency proof lines, a blank line and a checkpoint');
    const [oldLine, ...proofLines] = body.slice(0, split).split('\n');
    const old = /^old (0|[1-9][0-9]{0,15})$/.exec(oldLine ?? '');
    if (!old) return text(400, 'the first line reads "old <size>"');
    if (!Number.isSafeInteger(Number(old[1]))) return text(400, `an old size above ${Number.MAX_SAFE_INTEGER} is not taken`);
    if (proofLines.length > MAX_PROOF_LINES) return text(400, `at most ${MAX_PROOF_LINES} consistency proof lines`);
    const proof: Buffer[] = [];
    for (const line of proofLines) {
      if (!/^[A-Za-z0-9+/]{43}=$/.test(line)) return text(400, 'each consistency proof line is one base64 SHA-256 hash');
      proof.push(Buffer.from(line, 'base64'));
    }
    const note = body.slice(split + 2);
    // The checkpoint's text: what its signatures, and the cosignature, are over (up to the last
    // blank line, as signed-note reads it and openNote checks it).
    const signedText = note.slice(0, note.lastIndexOf('\n\n') + 1);
    let checkpoint: Checkpoint;
    try {
      checkpoint = parseCheckpoint(signedText);
    } catch (error) {
      return text(400, (error as Error).message);
    }
    const keys = this.keysFor(checkpoint.origin);
    if (keys.length === 0) return text(404, `unknown log: ${checkpoint.origin}`);
    const opened = keys.some((k) => {
      try {
        openNote(note, k);
        return true;
      } catch (error) {
        if (!(error instanceof NoteError)) throw error;
        return false;
      }
    });
    if (!opened) return text(403, `no signature by a key trusted for ${checkpoint.origin} verifies`);
    const oldSize = Number(old[1]);
    if (oldSize > checkpoint.treeSize) return text(400, `old size ${oldSize} is larger than the checkpoint's ${checkpoint.treeSize}`);

    const state = this.latest(checkpoint.origin);
    const known = state?.treeSize ?? 0;
    if (oldSize !== known) return { status: 409, body: `${known}\n`, contentType: 'text/x.tlog.size' };
    const root = checkpoint.rootHash;
    if (oldSize === 0) {
      if (proof.length > 0) return text(400, 'the consistency proof is empty when the old size is 0');
    } else if (oldSize === checkpoint.treeSize) {
      if (proof.length > 0) return text(400, 'the consistency proof is empty when the sizes are equal');
      if (!Buffer.from(state!.rootHash, 'base64').equals(root)) {
        this.evidence(checkpoint.origin, 'same size, different root hash: a fork', body);
        return text(409, `a checkpoint of ${oldSize} leaves with another root hash was cosigned before: the log forked`);
      }
    } else if (!verifyConsistency(oldSize, checkpoint.treeSize, proof, Buffer.from(state!.rootHash, 'base64'), root)) {
      this.evidence(checkpoint.origin, 'the consistency proof does not verify', body);
      return text(422, `the consistency proof from ${oldSize} to ${checkpoint.treeSize} leaves does not verify`);
    }

    const at = this.clock();
    const line = cosignatureLine(signedText, this.signer, at);
    const next: OriginState = {
      origin: checkpoint.origin,
      treeSize: checkpoint.treeSize,
      rootHash: root.toString('base64'),
      checkpoint: `${note}${line}`,
      cosignedAt: new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString(),
    };
    // Saved before answering: a cosignature given is never forgotten, so no rollback passes later.
    writeFileDurably(this.statePath(checkpoint.origin), `${JSON.stringify(next)}\n`);
    return { status: 200, body: line, contentType: 'text/plain; charset=utf-8' };
  }

  /** Keeps a signed request that the log misbehaved (a fork, a bad proof): evidence for its users. */
  private evidence(origin: string, reason: string, body: string): void {
    appendFileSync(join(this.dir, 'evidence.jsonl'), `${JSON.stringify({ at: this.clock().toISOString(), origin, reason, body })}\n`);
  }
}

export class WitnessConfigError extends Error {
  override readonly name = 'WitnessConfigError';
}

const readBody = (req: IncomingMessage): Promise<string | null> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/**
 * The witness over HTTP: `POST /add-checkpoint` (c2sp.org/tlog-witness); `GET /` answers its
 * name, vkey and the logs it trusts; `GET /checkpoint?origin=…` the newest checkpoint it cosigned
 * for an origin, with its cosignature, for monitors comparing views.
 */
export function witnessServer(witness: Witness, logs: readonly string[]): Server {
  return createServer((req, res) => {
    const send = (a: WitnessAnswer) => {
      res.writeHead(a.status, { 'content-type': a.contentType, 'content-length': Buffer.byteLength(a.body) });
      res.end(a.body);
    };
    const url = new URL(req.url ?? '/', 'http://witness');
    void (async () => {
      if (req.method === 'POST' && url.pathname === '/add-checkpoint') {
        const body = await readBody(req);
        send(body === null ? text(413, `the body is larger than ${MAX_BODY} bytes`) : await witness.addCheckpoint(body));
      } else if (req.method === 'GET' && url.pathname === '/') {
        send({
          status: 200,
          body: `${JSON.stringify({ name: witness.signer.name, vkey: witness.vkey, logs })}\n`,
          contentType: 'application/json',
        });
      } else if (req.method === 'GET' && url.pathname === '/checkpoint') {
        const state = witness.latest(url.searchParams.get('origin') ?? '');
        send(
          state
            ? { status: 200, body: state.checkpoint, contentType: 'text/plain; charset=utf-8' }
            : text(404, 'no checkpoint cosigned for that origin'),
        );
      } else send(text(404, 'POST /add-checkpoint, GET /, GET /checkpoint?origin='));
    })().catch(() => {
      if (!res.headersSent) send(text(500, 'the witness failed; nothing was cosigned'));
      else res.destroy();
    });
  });
}
