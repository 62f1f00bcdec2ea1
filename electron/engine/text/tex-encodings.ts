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

// Latin Modern's math fonts keep Computer Modern's slots and widths
const OML_FONT = /^(?:CMMI|CMMIB)\d|^LMMathItalic\d+-(?:Regular|Bold)$/;
const OMS_FONT = /^(?:CMSY|CMBSY)\d|^LMMathSymbols\d+-(?:Regular|Bold)$/;

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

/**
 * The widths (em) of TeX's math italic `phi` and `phi1`, `epsilon` and `epsilon1` at each design
 * size, from the fonts' TFM files (Latin Modern's are the same). Readers name the glyphs by the Adobe list, which gives `phi` φ
 * and `phi1` ϕ, where TeX draws `\phi` as ϕ and `\varphi` as φ (and `epsilon` ε for TeX's ϵ), so
 * in a file without a ToUnicode map the pairs come swapped. The variant is always the wider glyph.
 */
const VARIANT_WIDTHS: Readonly<Record<string, readonly [phi: number, varphi: number, epsilon: number, varepsilon: number]>> = {
  CMMI5: [0.8417, 0.9181, 0.6135, 0.6747],
  CMMI6: [0.7421, 0.8116, 0.5233, 0.5867],
  CMMI7: [0.6869, 0.7514, 0.4761, 0.5397],
  CMMI8: [0.6316, 0.6924, 0.4295, 0.4906],
  CMMI9: [0.6117, 0.6711, 0.4164, 0.4771],
  CMMI10: [0.5958, 0.6542, 0.4059, 0.4663],
  CMMI12: [0.5795, 0.6414, 0.3954, 0.4582],
  CMMIB5: [0.9403, 0.9972, 0.6694, 0.7139],
  CMMIB6: [0.8579, 0.9065, 0.5981, 0.6448],
  CMMIB7: [0.799, 0.8417, 0.5476, 0.5954],
  CMMIB8: [0.7549, 0.7931, 0.5122, 0.5584],
  CMMIB9: [0.7329, 0.7676, 0.4969, 0.542],
  CMMIB10: [0.7125, 0.7472, 0.4833, 0.5288],
};

/** A math italic's Computer Modern name and size: `CMMI7` for `CMMI7` and `LMMathItalic7-Regular`, `CMMIB10` for `LMMathItalic10-Bold`. */
function computerModernName(fontName: string): string {
  const latinModern = /^LMMathItalic(\d+)-(Regular|Bold)$/.exec(fontName);
  if (latinModern) return `${latinModern[2] === 'Bold' ? 'CMMIB' : 'CMMI'}${latinModern[1]}`;
  return /^CMMIB?\d+/.exec(fontName)?.[0] ?? '';
}

/** How far (em) a glyph's width may be from its TFM width and still tell the pair apart. */
const WIDTH_TOLERANCE = 0.012;

/**
 * TeX's phi or epsilon as the glyph drawn, told by its width in em (`emWidth`) in the math italic
 * font `fontName` (no subset tag): ϕ for `\phi`, φ for `\varphi`, ϵ for `\epsilon`, ε for
 * `\varepsilon`, whatever Unicode the file's map gave. Anything else, or a width that matches
 * neither glyph, comes back as `text`.
 */
export function texVariantByWidth(fontName: string, text: string, emWidth: number): string {
  const widths = VARIANT_WIDTHS[computerModernName(fontName)];
  if (!widths) return text;
  const pair = text === 'φ' || text === 'ϕ' ? (['ϕ', 'φ', widths[0], widths[1]] as const) : text === 'ε' || text === 'ϵ' ? (['ϵ', 'ε', widths[2], widths[3]] as const) : undefined;
  if (!pair) return text;
  const [plain, variant, plainWidth, variantWidth] = pair;
  if (Math.abs(emWidth - plainWidth) <= WIDTH_TOLERANCE) return plain;
  if (Math.abs(emWidth - variantWidth) <= WIDTH_TOLERANCE) return variant;
  return text;
}
