/**
 * Coalesces saves of one file: a request made while a write runs gets the next write, and every
 * request made before that next write starts shares it. Each write reads the state when it starts,
 * so whoever awaits a request knows that everything applied before it is on disk.
 */
export class CoalescedWrite {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(private readonly write: () => Promise<void>) {}

  request(): Promise<void> {
    this.queued ??= (this.running ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        const run = this.write();
        this.running = run;
        return run.finally(() => {
          if (this.running === run) this.running = undefined;
        });
      });
    return this.queued;
  }

  /** Resolves once nothing is written or waiting to be (errors were already given to requesters). */
  async idle(): Promise<void> {
    while (this.queued ?? this.running) await (this.queued ?? this.running)!.catch(() => undefined);
  }
}
