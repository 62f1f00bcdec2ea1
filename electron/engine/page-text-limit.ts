/**
 * The most text Folio takes from a model for one page. A server that ignores max_tokens (or a
 * model that never stops) would otherwise stream without end into the page, the preview and the
 * exports. A dense page is about 10,000 characters and a page-wide HTML table several times that;
 * 200,000 leaves room for any real page and keeps one page's cost bounded.
 */
export const PAGE_TEXT_LIMIT = 200_000;

/** Passes text on up to the limit; on the first character past it, says so, once, so the stream can be stopped. */
export class PageTextLimit {
  private taken = 0;
  private overflowed = false;

  constructor(
    readonly limit: number,
    private readonly onReached: () => void,
  ) {}

  /** Whether text past the limit came and was left out. */
  get reached(): boolean {
    return this.overflowed;
  }

  /** The part of `delta` that still fits. */
  take(delta: string): string {
    if (this.overflowed) return '';
    const room = this.limit - this.taken;
    if (delta.length <= room) {
      this.taken += delta.length;
      return delta;
    }
    // never cut a surrogate pair in two
    const cut = room > 0 && /[\uD800-\uDBFF]/.test(delta[room - 1]!) ? room - 1 : room;
    this.taken = this.limit;
    this.overflowed = true;
    this.onReached();
    return delta.slice(0, cut);
  }
}
