/** Bytes done, the rate over the last few seconds and the time left, for a download's progress line. */

export interface TransferProgress {
  doneBytes: number;
  totalBytes: number;
  /** Over the last few seconds; 0 until something arrives. */
  bytesPerSecond: number;
  /** Undefined until there is a rate to go by. */
  secondsLeft: number | undefined;
  /** The file being fetched. */
  file?: string;
}

const WINDOW_MS = 8_000;

export class TransferMeter {
  private samples: { at: number; done: number }[] = [];

  constructor(
    public doneBytes: number,
    public totalBytes: number,
    private readonly now: () => number = Date.now,
  ) {
    this.samples.push({ at: now(), done: doneBytes });
  }

  add(delta: number): void {
    this.doneBytes += delta;
    const at = this.now();
    this.samples.push({ at, done: this.doneBytes });
    while (this.samples.length > 2 && this.samples[1]!.at < at - WINDOW_MS) this.samples.shift();
  }

  progress(file?: string): TransferProgress {
    const first = this.samples[0]!;
    const at = this.now();
    const seconds = (at - first.at) / 1000;
    const rate = seconds > 0.5 ? Math.max(0, (this.doneBytes - first.done) / seconds) : 0;
    const left = Math.max(0, this.totalBytes - this.doneBytes);
    return {
      doneBytes: this.doneBytes,
      totalBytes: this.totalBytes,
      bytesPerSecond: rate,
      secondsLeft: left === 0 ? 0 : rate > 0 ? left / rate : undefined,
      ...(file !== undefined && { file }),
    };
  }
}
