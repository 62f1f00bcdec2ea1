/**
 * Buffers what a host process says, so the supervisor can take events one at a time with a
 * deadline, without missing any that arrive between two takes.
 */

import type { HostEvent } from '../../../shared/protocol.js';
import type { HostProcess } from './host-process.js';

export type Taken =
  | { kind: 'event'; event: HostEvent }
  | { kind: 'exit'; description: string }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

export class HostEventQueue {
  private readonly events: HostEvent[] = [];
  private exitDescription: string | undefined;
  private wake: (() => void) | undefined;

  constructor(host: Pick<HostProcess, 'onEvent' | 'onExit'>) {
    host.onEvent((event) => {
      this.events.push(event);
      this.wake?.();
    });
    host.onExit((description) => {
      this.exitDescription = description;
      this.wake?.();
    });
  }

  get exited(): boolean {
    return this.exitDescription !== undefined;
  }

  /** The next event, or why none came before `deadline` (a `Date.now()` value). Events queued before an exit still come first. */
  async take(deadline: number, signal?: AbortSignal): Promise<Taken> {
    for (;;) {
      const event = this.events.shift();
      if (event) return { kind: 'event', event };
      if (this.exitDescription !== undefined) return { kind: 'exit', description: this.exitDescription };
      if (signal?.aborted) return { kind: 'aborted' };
      const remaining = deadline - Date.now();
      if (remaining <= 0) return { kind: 'timeout' };
      await this.sleep(remaining, signal);
    }
  }

  private sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }
}
