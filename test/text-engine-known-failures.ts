/**
 * Fixtures the text engine does not yet convert well enough, each with what goes wrong. The
 * quality test expects these to fail, so a fix shows up as a failure telling you to remove the
 * entry (and to tighten the fixture's edit-distance limit to what the engine now achieves).
 */
export const KNOWN_FAILURES: Readonly<Record<string, string>> = {
  'web-lists': 'list bullets painted as shapes (browser-printed pages) are not seen, so the items become paragraphs',
};
