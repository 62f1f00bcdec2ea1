/** A figure that export wrote (or embeds), found by the link the exported Markdown gives it. */
export interface ExportedImage {
  /** Relative to the exported document, with `/` separators. */
  path: string;
  data: Uint8Array;
  /** Its size on the page, in PDF points. */
  width: number;
  height: number;
}

/** The figure a Markdown image link points at, or undefined when export did not write it. */
export type ImageLookup = (src: string) => ExportedImage | undefined;
