import { Lifecycle, type Part } from '../common/lifecycle.js';

/** What the host runs: a follower of the ledger, or a feed consumer shaped like one. */
export interface HostedFollower extends Part {
  /** Asks for a batch now: something was appended. */
  poke(): void;
}

/**
 * Runs the followers of one process (projection runner, webhook subscription, sealer): starts
 * them in order, stops them in reverse (also when one fails to start), and wakes them all with
 * one call, whoever learns of an append (the ledger's append, the shared reads, a ledger that
 * pushes).
 *
 * @example
 * const host = new FollowerHost([runner, subscription, sealer]);
 * ledger.onAppended(() => host.pokeAll());
 * await host.start();
 * await host.stop();
 */
export class FollowerHost implements Part {
  readonly name = 'followers';
  private life: Lifecycle | undefined;

  constructor(readonly followers: readonly HostedFollower[]) {}

  async start(): Promise<void> {
    if (this.life) return;
    const life = new Lifecycle();
    this.life = life;
    try {
      for (const follower of this.followers) await life.start(follower);
    } catch (error) {
      this.life = undefined;
      throw error;
    }
  }

  async stop(): Promise<void> {
    const life = this.life;
    this.life = undefined;
    await life?.stop();
  }

  /** Wakes every follower. */
  pokeAll(): void {
    for (const follower of this.followers) follower.poke();
  }
}
