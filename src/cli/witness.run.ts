// What the commands defined in witness.commands.ts do once their arguments are parsed: imported by their
// `load` only when one runs, with the store and everything they use (src/cli/README.md).
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Verifier } from '../transparency/note.js';
import { Witness, WitnessConfigError, witnessServer } from '../transparency/witness.js';
import { UsageError, type CommandRun } from './command.js';

interface WitnessInput {
  host: string;
  port: number;
  state: string;
  logs: Verifier[];
  logVkeys: string[];
  name: string | undefined;
}

export const witnessServe: CommandRun = {
  async runOffline(input: WitnessInput, io) {
    let witness: Witness;
    try {
      witness = Witness.open(input.state, input.logs, input.name);
    } catch (error) {
      if (error instanceof WitnessConfigError) throw new UsageError(error.message);
      throw error;
    }
    const server = witnessServer(witness, input.logVkeys);
    server.listen(input.port, input.host);
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const host = input.host.includes(':') ? `[${input.host}]` : input.host;
    io.emit?.({ name: witness.signer.name, vkey: witness.vkey, url: `http://${host}:${port}` });
    io.info(
      `witness ${witness.signer.name} listening on http://${host}:${port}; give logs WITNESSES=${witness.vkey}@http://${host}:${port}`,
    );
    const signal = await new Promise<string>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    io.info(`witness stopped (${signal})`);
    return null;
  },
};
