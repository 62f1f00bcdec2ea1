/** At most `size` requests at once, over every page and document an engine serves; waiters go first come, first served. */

export class RequestSlots {
  private busy = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  async run<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    await this.acquire(signal);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.busy < this.size) {
      this.busy++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const granted = () => {
        signal.removeEventListener('abort', abort);
        resolve();
      };
      const abort = () => {
        this.waiting.splice(this.waiting.indexOf(granted), 1);
        reject(signal.reason);
      };
      this.waiting.push(granted);
      signal.addEventListener('abort', abort, { once: true });
    });
  }

  /** A freed slot passes straight to the next waiter, so `busy` never dips and lets a newcomer jump the queue. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy--;
  }
}
