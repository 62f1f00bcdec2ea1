/**
 * The names the TeX export may write in math, and how Unicode characters are written as LaTeX.
 * Every name here is defined by the preamble latex.ts writes (amsmath, amssymb, mathtools, bm,
 * xcolor, cancel); test/export-tex-safety.test.ts compiles each one, so a name that pdflatex does
 * not know cannot reach a `.tex`. Names a model writes that LaTeX spells otherwise (KaTeX's `\R`,
 * `\mathscr` without the rsfs fonts) are mapped to what LaTeX has.
 */

const words = (text: string): string[] => text.trim().split(/\s+/);

/** Control words that take no argument: symbols, operators, function names, spacing, styles. */
export const MATH_SYMBOLS: ReadonlySet<string> = new Set(
  words(`
  alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa varkappa lambda mu nu xi pi varpi rho varrho
  sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega
  varGamma varDelta varTheta varLambda varXi varPi varSigma varUpsilon varPhi varPsi varOmega digamma
  pm mp times div cdot ast star circ bullet oplus ominus otimes oslash odot dagger ddagger cap cup uplus sqcap sqcup vee wedge
  setminus smallsetminus wr diamond bigtriangleup bigtriangledown triangleleft triangleright amalg dotplus ltimes rtimes
  leftthreetimes rightthreetimes curlywedge curlyvee circleddash circledast circledcirc centerdot intercal boxplus boxminus
  boxtimes boxdot divideontimes barwedge veebar doublebarwedge Cap Cup land lor
  leq le geq ge neq ne equiv sim simeq approx cong propto prec succ preceq succeq ll gg lll ggg subset supset subseteq supseteq
  sqsubset sqsupset sqsubseteq sqsupseteq in ni notin mid parallel perp models vdash dashv asymp bowtie smile frown doteq
  leqslant geqslant lesssim gtrsim lessapprox gtrapprox approxeq leqq geqq nleq ngeq nless ngtr lneq gneq lneqq gneqq
  subsetneq supsetneq subsetneqq supsetneqq nsubseteq nsupseteq nmid nparallel nsim ncong nvdash nvDash vDash Vdash Vvdash
  therefore because triangleq backsim backsimeq thicksim thickapprox eqsim circeq bumpeq Bumpeq doteqdot risingdotseq
  fallingdotseq lessgtr gtrless lesseqgtr gtreqless preccurlyeq succcurlyeq precsim succsim Subset Supset subseteqq supseteqq
  varpropto between pitchfork shortmid shortparallel smallsmile smallfrown ntriangleleft ntriangleright trianglelefteq
  trianglerighteq vartriangleleft vartriangleright nprec nsucc npreceq nsucceq
  coloneqq eqqcolon Coloneqq coloneq eqcolon vcentcolon dblcolon colon
  leftarrow gets rightarrow to Leftarrow Rightarrow leftrightarrow Leftrightarrow longleftarrow longrightarrow Longleftarrow
  Longrightarrow longleftrightarrow Longleftrightarrow mapsto longmapsto hookleftarrow hookrightarrow uparrow downarrow
  updownarrow Uparrow Downarrow Updownarrow nearrow searrow swarrow nwarrow leftharpoonup leftharpoondown rightharpoonup
  rightharpoondown rightleftharpoons leftrightharpoons iff implies impliedby nleftarrow nrightarrow nLeftarrow nRightarrow
  nleftrightarrow nLeftrightarrow twoheadrightarrow twoheadleftarrow leftleftarrows rightrightarrows leftrightarrows
  rightleftarrows Lsh Rsh looparrowleft looparrowright curvearrowleft curvearrowright circlearrowleft circlearrowright
  upharpoonleft upharpoonright downharpoonleft downharpoonright multimap leadsto rightsquigarrow leftrightsquigarrow
  dashrightarrow dashleftarrow Lleftarrow Rrightarrow upuparrows downdownarrows
  infty nabla partial forall exists nexists emptyset varnothing neg lnot top bot angle measuredangle sphericalangle triangle
  square blacksquare lozenge blacklozenge bigstar ell hbar hslash imath jmath wp Re Im aleph beth gimel daleth prime backprime
  surd flat natural sharp clubsuit diamondsuit heartsuit spadesuit dots ldots cdots vdots ddots dotsc dotsb dotsm dotsi dotso
  checkmark complement mho eth Finv Game Bbbk diagup diagdown circledS blacktriangle blacktriangledown blacktriangleleft
  blacktriangleright triangledown vartriangle
  sum prod coprod int iint iiint iiiint idotsint oint bigcup bigcap bigvee bigwedge bigodot bigoplus bigotimes biguplus bigsqcup
  arccos arcsin arctan arg cos cosh cot coth csc deg det dim exp gcd hom inf ker lg lim liminf limsup ln log max min Pr sec sin
  sinh sup tan tanh injlim projlim varlimsup varliminf varinjlim varprojlim
  langle rangle lvert rvert lVert rVert lfloor rfloor lceil rceil vert Vert backslash lbrace rbrace lbrack rbrack
  ulcorner urcorner llcorner lrcorner lgroup rgroup lmoustache rmoustache arrowvert Arrowvert bracevert
  left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr bigm Bigm biggm Biggm
  quad qquad thinspace medspace thickspace negthinspace negmedspace negthickspace enspace
  displaystyle textstyle scriptstyle scriptscriptstyle limits nolimits nonumber notag bmod
  hline
`),
);

/** Control words that take arguments, all in math mode: fonts, accents, fractions, arrows, boxes. */
export const MATH_COMMANDS: ReadonlySet<string> = new Set(
  words(`
  mathbf mathrm mathit mathsf mathtt mathcal mathbb mathfrak mathnormal boldsymbol bm pmb operatorname
  frac dfrac tfrac cfrac binom dbinom tbinom sqrt
  overline underline overbrace underbrace widehat widetilde hat check tilde acute grave dot ddot dddot ddddot breve bar vec
  mathring overrightarrow overleftarrow overleftrightarrow underrightarrow underleftarrow underleftrightarrow
  xrightarrow xleftarrow xRightarrow xLeftarrow xleftrightarrow xLeftrightarrow xhookrightarrow xhookleftarrow xmapsto
  overset underset stackrel substack boxed cancel bcancel xcancel cancelto phantom vphantom hphantom smash
  pmod pod mod not mathop mathrel mathbin mathord mathpunct mathinner mathopen mathclose
`),
);

/** Commands whose one argument is text, not math. */
export const TEXT_ARGUMENT_COMMANDS: ReadonlySet<string> = new Set(words('text textrm textbf textit textsf texttt textnormal textup emph mbox'));

/** Names a model writes (KaTeX accepts them) that LaTeX spells otherwise. */
export const MATH_RENAMED: Readonly<Record<string, string>> = {
  // the rsfs fonts behind mathrsfs are not in TeX Live's recommended sets, and a missing font makes
  // pdflatex run mktextfm: script letters are set as calligraphic ones instead
  mathscr: 'mathcal',
  R: 'mathbb{R}',
  N: 'mathbb{N}',
  Z: 'mathbb{Z}',
  Q: 'mathbb{Q}',
  C: 'mathbb{C}',
  reals: 'mathbb{R}',
  Reals: 'mathbb{R}',
  natnums: 'mathbb{N}',
  Complex: 'mathbb{C}',
  argmax: 'operatorname*{arg\\,max}',
  argmin: 'operatorname*{arg\\,min}',
  dag: 'dagger',
  ddag: 'ddagger',
  empty: 'emptyset',
  lang: 'langle',
  rang: 'rangle',
  infin: 'infty',
  isin: 'in',
  sub: 'subset',
  sube: 'subseteq',
  supe: 'supseteq',
  plusmn: 'pm',
  larr: 'leftarrow',
  rarr: 'rightarrow',
  lrarr: 'leftrightarrow',
  harr: 'leftrightarrow',
  Larr: 'Leftarrow',
  Rarr: 'Rightarrow',
  Harr: 'Leftrightarrow',
  lArr: 'Leftarrow',
  rArr: 'Rightarrow',
  hArr: 'Leftrightarrow',
  uarr: 'uparrow',
  darr: 'downarrow',
  exist: 'exists',
  alef: 'aleph',
  bull: 'bullet',
  weierp: 'wp',
  image: 'Im',
  real: 'Re',
  Alpha: 'mathrm{A}',
  Beta: 'mathrm{B}',
  Epsilon: 'mathrm{E}',
  Zeta: 'mathrm{Z}',
  Eta: 'mathrm{H}',
  Iota: 'mathrm{I}',
  Kappa: 'mathrm{K}',
  Mu: 'mathrm{M}',
  Nu: 'mathrm{N}',
  Omicron: 'mathrm{O}',
  Rho: 'mathrm{P}',
  Tau: 'mathrm{T}',
  Chi: 'mathrm{X}',
  omicron: 'mathit{o}',
  degree: '{}^{\\circ}',
  cdotp: 'cdot',
  mathellipsis: 'ldots',
  thetasym: 'vartheta',
  Dagger: 'ddagger',
  lt: '<',
  gt: '>',
};

/** Single characters that are commands in math: `\{`, `\,`, `\%`... (`\\` and `\&` are the alignments' own). */
export const MATH_CONTROL_SYMBOLS: ReadonlySet<string> = new Set(['{', '}', '|', ',', ';', ':', '!', ' ', '%', '#', '$', '_', '&']);

/** Greek letters (and ∇, ∂, which Unicode styles with them) as LaTeX math. */
const UNICODE_GREEK: Readonly<Record<string, string>> = {
  ...Object.fromEntries([...'αβγδεζηθικλμνξπρστυφχψω'].map((c, i) => [c, `\\${words('alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma tau upsilon phi chi psi omega')[i]} `])),
  ο: 'o',
  ς: '\\varsigma ',
  ϑ: '\\vartheta ',
  ϕ: '\\phi ',
  ϵ: '\\epsilon ',
  ϱ: '\\varrho ',
  ϖ: '\\varpi ',
  ϴ: '\\Theta ',
  ϰ: '\\varkappa ',
  ϝ: '\\digamma ',
  Ϝ: '\\digamma ',
  ...Object.fromEntries([...'ΓΔΘΛΞΠΣΥΦΨΩ'].map((c, i) => [c, `\\${words('Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega')[i]} `])),
  ...Object.fromEntries([...'ΑΒΕΖΗΙΚΜΝΟΡΤΧ'].map((c) => [c, `\\mathrm{${'ABEZHIKMNOPTX'['ΑΒΕΖΗΙΚΜΝΟΡΤΧ'.indexOf(c)]}}`])),
  '∂': '\\partial ',
  '∇': '\\nabla ',
};

/** Unicode characters in math (from a model writing `α` or `≤` inside `$...$`), as LaTeX math. */
export const UNICODE_MATH: Readonly<Record<string, string>> = {
  ...UNICODE_GREEK,
  '−': '-',
  '∓': '\\mp ',
  '±': '\\pm ',
  '×': '\\times ',
  '÷': '\\div ',
  '·': '\\cdot ',
  '⋅': '\\cdot ',
  '∗': '\\ast ',
  '∘': '\\circ ',
  '•': '\\bullet ',
  '●': '\\bullet ',
  '◦': '\\circ ',
  µ: '\\mu ',
  '‹': '<',
  '›': '>',
  ˆ: '\\hat{}',
  '√': '\\surd ',
  '∑': '\\sum ',
  '∏': '\\prod ',
  '∐': '\\coprod ',
  '∫': '\\int ',
  '∬': '\\iint ',
  '∭': '\\iiint ',
  '∮': '\\oint ',
  '∆': '\\Delta ',
  '∞': '\\infty ',
  '∀': '\\forall ',
  '∃': '\\exists ',
  '∄': '\\nexists ',
  '∅': '\\emptyset ',
  '∈': '\\in ',
  '∉': '\\notin ',
  '∋': '\\ni ',
  '∩': '\\cap ',
  '∪': '\\cup ',
  '⊂': '\\subset ',
  '⊃': '\\supset ',
  '⊆': '\\subseteq ',
  '⊇': '\\supseteq ',
  '⊄': '\\not\\subset ',
  '⊊': '\\subsetneq ',
  '⊋': '\\supsetneq ',
  '∖': '\\setminus ',
  '∧': '\\wedge ',
  '∨': '\\vee ',
  '¬': '\\neg ',
  '⊕': '\\oplus ',
  '⊖': '\\ominus ',
  '⊗': '\\otimes ',
  '⊙': '\\odot ',
  '⊥': '\\perp ',
  '⊤': '\\top ',
  '∥': '\\parallel ',
  '∦': '\\nparallel ',
  '∣': '\\mid ',
  '∠': '\\angle ',
  '≤': '\\leq ',
  '≥': '\\geq ',
  '⩽': '\\leqslant ',
  '⩾': '\\geqslant ',
  '≠': '\\neq ',
  '≈': '\\approx ',
  '≃': '\\simeq ',
  '≅': '\\cong ',
  '≡': '\\equiv ',
  '∼': '\\sim ',
  '∝': '\\propto ',
  '≪': '\\ll ',
  '≫': '\\gg ',
  '≺': '\\prec ',
  '≻': '\\succ ',
  '≔': '\\coloneqq ',
  '≜': '\\triangleq ',
  '∴': '\\therefore ',
  '∵': '\\because ',
  '→': '\\rightarrow ',
  '←': '\\leftarrow ',
  '↔': '\\leftrightarrow ',
  '⇒': '\\Rightarrow ',
  '⇐': '\\Leftarrow ',
  '⇔': '\\Leftrightarrow ',
  '↦': '\\mapsto ',
  '⟶': '\\longrightarrow ',
  '⟵': '\\longleftarrow ',
  '⟹': '\\Longrightarrow ',
  '⟺': '\\Longleftrightarrow ',
  '↑': '\\uparrow ',
  '↓': '\\downarrow ',
  '⟨': '\\langle ',
  '⟩': '\\rangle ',
  '⌊': '\\lfloor ',
  '⌋': '\\rfloor ',
  '⌈': '\\lceil ',
  '⌉': '\\rceil ',
  '‖': '\\|',
  '…': '\\ldots ',
  '⋯': '\\cdots ',
  '⋮': '\\vdots ',
  '⋱': '\\ddots ',
  '′': "'",
  '″': "''",
  '°': '{}^{\\circ}',
  ℓ: '\\ell ',
  ℏ: '\\hbar ',
  ℘: '\\wp ',
  ℜ: '\\Re ',
  ℑ: '\\Im ',
  ℵ: '\\aleph ',
  ℝ: '\\mathbb{R}',
  ℕ: '\\mathbb{N}',
  ℤ: '\\mathbb{Z}',
  ℚ: '\\mathbb{Q}',
  ℂ: '\\mathbb{C}',
  ℙ: '\\mathbb{P}',
  '□': '\\square ',
  '■': '\\blacksquare ',
  '△': '\\triangle ',
  '★': '\\bigstar ',
  '✓': '\\checkmark ',
  '⊢': '\\vdash ',
  '⊨': '\\models ',
  '†': '\\dagger ',
  '‡': '\\ddagger ',
  '¹': '^{1}',
  '²': '^{2}',
  '³': '^{3}',
  '½': '\\tfrac{1}{2}',
  '¼': '\\tfrac{1}{4}',
  '¾': '\\tfrac{3}{4}',
  ℎ: 'h',
  ...mathAlphanumerics(),
};

/**
 * The styled letters and digits of Unicode's Mathematical Alphanumeric Symbols (U+1D400–U+1D7FF: 𝑥, 𝜋,
 * 𝐀, 𝔤, 𝟏), which PDFs typeset with Unicode math fonts carry in their text layer: the plain letter
 * (NFKC) in LaTeX's font for that style. Italic is math's own default; LaTeX's script and
 * blackboard fonts have capitals only, so a lowercase one is written plain rather than as a glyph
 * that is not there.
 */
function mathAlphanumerics(): Record<string, string> {
  // [first code point, last, style]: the block's runs, each a style of A–Z a–z, Greek, or digits
  const runs: [number, number, string][] = [
    [0x1d400, 0x1d433, 'mathbf'],
    [0x1d434, 0x1d467, ''],
    [0x1d468, 0x1d49b, 'bm'],
    [0x1d49c, 0x1d4cf, 'mathcal'],
    [0x1d4d0, 0x1d503, 'mathcal'],
    [0x1d504, 0x1d537, 'mathfrak'],
    [0x1d538, 0x1d56b, 'mathbb'],
    [0x1d56c, 0x1d59f, 'mathfrak'],
    [0x1d5a0, 0x1d66f, 'mathsf'],
    [0x1d670, 0x1d6a3, 'mathtt'],
    [0x1d6a8, 0x1d6e1, 'bm'],
    [0x1d6e2, 0x1d71b, ''],
    [0x1d71c, 0x1d7c9, 'bm'],
    [0x1d7ce, 0x1d7d7, 'mathbf'],
    [0x1d7d8, 0x1d7e1, ''],
    [0x1d7e2, 0x1d7f5, 'mathsf'],
    [0x1d7f6, 0x1d7ff, 'mathtt'],
  ];
  const entries: [string, string][] = [
    ['\u{1d6a4}', '\\imath '],
    ['\u{1d6a5}', '\\jmath '],
  ];
  for (const [first, last, style] of runs) {
    for (let code = first; code <= last; code++) {
      const character = String.fromCodePoint(code);
      const plain = character.normalize('NFKC');
      // unassigned code points (the holes filled by ℎ, ℬ, ℝ... in Letterlike Symbols) stay as they are
      if (plain === character || [...plain].length !== 1) continue;
      const base = /^[A-Za-z0-9]$/.test(plain) ? plain : UNICODE_GREEK[plain];
      if (base === undefined) continue;
      const capitalsOnly = (style === 'mathcal' || style === 'mathbb') && !/^[A-Z]$/.test(plain);
      entries.push([character, style === '' || capitalsOnly ? base : `\\${style}{${base.trim()}}`]);
    }
  }
  return Object.fromEntries(entries);
}

/** Text-mode LaTeX for characters that are special to TeX or outside what inputenc sets alone. */
export const TEXT_SPECIALS: Readonly<Record<string, string>> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  $: '\\$',
  '&': '\\&',
  '#': '\\#',
  '%': '\\%',
  _: '\\_',
  '^': '\\textasciicircum{}',
  '~': '\\textasciitilde{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
  '"': "''",
  '“': '``',
  '”': "''",
  '„': ',,',
  '‘': '`',
  '’': "'",
  '‚': ',',
  // OT1 sets < and > in text as ¡ and ¿
  '«': '$\\ll$',
  '»': '$\\gg$',
  '‹': '$<$',
  '›': '$>$',
  ˆ: '\\^{}',
  '´': "\\'{}",
  '˜': '\\~{}',
  '–': '--',
  '—': '---',
  '‐': '-',
  '‑': '-',
  '…': '\\ldots{}',
  '€': 'EUR',
  '£': '\\pounds{}',
  '¢': 'c',
  '¥': 'JPY',
  '\u00a0': '~',
  '\u2009': '\\,',
  '\u202f': '\\,',
  '\u200b': '',
  '\u00ad': '\\-',
  '§': '\\S{}',
  '©': '\\copyright{}',
  '®': '(R)',
  '™': '(TM)',
  '¶': '\\P{}',
  '☐': '[ ]',
  '☒': '[x]',
  '☑': '[x]',
  ſ: 's',
  ŉ: "'n",
  '\t': ' ',
};
