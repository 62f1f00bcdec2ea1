/**
 * The characters of TeX's math italic (OML: CMMI) and math symbol (OMS: CMSY) fonts by slot. Their
 * encodings are fixed, so a glyph whose name neither PDFium nor pdf.js knows (`epsilon1`, `rho1`,
 * `lscript`, `diamondmath` in a file without a ToUnicode map) is still known by its code. Slot 13
 * of CMSY, the big circle of both `\bigcirc` and plain TeX's copyright sign (a `c` drawn inside
 * it), is `◯` here; the reader makes the pair `©` (isTexCopyright).
 */

const OML =
  'ΓΔΘΛΞΠΣΥΦΨΩαβγδϵζηθικλμνξπρστυϕχψωεϑϖϱςφ↼↽⇀⇁\u0000\u0000▷◁0123456789.,</>⋆∂ABCDEFGHIJKLMNOPQRSTUVWXYZ♭♮♯⌣⌢ℓabcdefghijklmnopqrstuvwxyzıȷ℘\u20D7⁀';
const OMS =
  '−·×∗÷⋄±∓⊕⊖⊗⊘⊙◯∘•≍≡⊆⊇≤≥⪯⪰∼≈⊂⊃≪≫≺≻←→↑↓↔↗↘≃⇐⇒⇑⇓⇔↖↙∝′∞∈∋△▽\u0338\u0000∀∃¬∅ℜℑ⊤⊥ℵABCDEFGHIJKLMNOPQRSTUVWXYZ∪∩⊎∧∨⊢⊣⌊⌋⌈⌉{}⟨⟩|‖↕⇕\\≀√⨿∇∫⊔⊓⊑⊒§†‡¶♣♢♡♠';

const OML_FONT = /^(?:CMMI|CMMIB)\d/;
const OMS_FONT = /^(?:CMSY|CMBSY)\d/;

/** The character at slot `code` of the TeX math font `fontName` (no subset tag), if it is one. */
export function texSlotText(fontName: string, code: number): string | undefined {
  const table = OML_FONT.test(fontName) ? OML : OMS_FONT.test(fontName) ? OMS : undefined;
  if (!table) return undefined;
  const slot = dvipsSlot(code);
  const char = [...table][slot];
  return char && char !== '\u0000' ? char : undefined;
}

/** dvips-era fonts moved slots 0-32 up to 161-170 and 173-195 (away from control codes). */
function dvipsSlot(code: number): number {
  if (code >= 0xa1 && code <= 0xaa) return code - 0xa1;
  if (code >= 0xad && code <= 0xc3) return code - 0xa3;
  return code;
}

/** Whether `circle` is CMSY's big circle drawn around `inner`, a `c`: plain TeX's `\copyright`. */
export function isTexCopyright(circle: { text: string; x: number; advance: number }, inner: { text: string; x: number } | undefined): boolean {
  return circle.text === '◯' && inner?.text === 'c' && inner.x >= circle.x && inner.x <= circle.x + circle.advance;
}
