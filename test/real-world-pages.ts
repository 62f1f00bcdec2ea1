/**
 * HTML pages that imitate what the text engine meets in real-world PDFs (journal articles of one
 * page with banners, book pages, financial statements, drop caps, pages of images of text), for
 * the tests of issue 24's quality items. Each is printed to PDF by Chromium in the test.
 */

const STYLE = `
  body { font-family: 'Liberation Serif', serif; font-size: 11pt; line-height: 1.4; margin: 0; }
  h1 { font-family: 'Liberation Sans', sans-serif; font-size: 18pt; margin: 0 0 10pt; }
  p { margin: 0 0 9pt; }
`;

function page(title: string, body: string, style = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>${STYLE}${style}</style></head><body>${body}</body></html>`;
}

/** A spacing accent set as its own glyph over the next letter, the way TeX's \accent places it. */
function accented(accent: string, letter: string): string {
  return `<span style="letter-spacing:-0.33em">${accent}</span>${letter}`;
}

export const ACCENTS = page(
  'Accents',
  `<h1>Names with accents</h1>
<p>The survey was led by J${accented('´', 'a')}n Nov${accented('ˇ', 'a')}k and M${accented('¨', 'u')}ller, with notes by Se${accented('˜', 'n')}or P${accented('`', 'e')}rez.</p>
<p>Their cafe\u0301 served cre\u0300me bru\u0302le\u0301e every afternoon of the survey.</p>`,
);

const PARAGRAPHS = [
  'Sea level along the northern coast has risen by about three millimetres a year since the first tide gauges were installed, and the rate has increased over the last two decades.',
  'We compare gauge records with satellite altimetry over the same period and find that local land movement explains most of the difference between the two series at each site.',
  'The harbour records show that storm surges above one metre have become twice as frequent, which matters more to the people who work on the quays than the average rise does.',
  'Our measurements were taken at six stations between the estuary and the northern headland, each visited once a month for three years, always at low water on a spring tide.',
];

/** A one-page journal article with the banners real articles carry in their margins. */
export const ONE_PAGE_ARTICLE = page(
  'Article',
  `<div style="position:absolute;top:0;left:0;right:0;font-family:'Liberation Sans',sans-serif;font-size:7.5pt;color:#444;display:flex;justify-content:space-between">
  <span>Journal of Coastal Studies, Vol. 12, No. 3 (2021), pp. 45–67</span><span>https://doi.org/10.1234/jcs.2021.045</span></div>
<div style="height:30mm"></div>
<h1>Rising Water on the Northern Coast</h1>
${PARAGRAPHS.map((p) => `<p>${p}</p>`).join('\n')}
${PARAGRAPHS.slice(0, 3).map((p) => `<p>${p}</p>`).join('\n')}
<div style="position:absolute;top:258mm;left:0;right:0;font-family:'Liberation Sans',sans-serif;font-size:7pt;color:#444">
  <div>Downloaded from https://academic.example.org/jcs/article/12/3/45 by guest on 12 March 2024</div>
  <div style="display:flex;justify-content:space-between"><span>Download date: 12/03/2024</span><span>Page 1 of 1</span></div></div>`,
  'body { position: relative; height: 260mm; }',
);

/** A book page: a running title and folio numeral above the text. */
export const BOOK_PAGE = page(
  'Book',
  `<div style="display:flex;justify-content:space-between;font-size:9pt;font-variant:small-caps;letter-spacing:0.05em;margin-bottom:14mm">
  <span>The Northern Coast</span><span>47</span></div>
${[...PARAGRAPHS, ...PARAGRAPHS].map((p) => `<p style="text-indent:1.5em;margin:0">${p}</p>`).join('\n')}`,
);

/** Pages of numbered lines, the body starting at the top of each page: nothing here is running text. */
export const NUMBERED_LINES = page(
  'Numbered lines',
  Array.from({ length: 150 }, (_, i) => `<div>${i + 1}. Line ${i + 1} of the transcript, read aloud by the witness.</div>`).join('\n'),
  'body { font-size: 12pt; line-height: 1.5; }',
);

export const HEADINGS = page(
  'Headings',
  `<h1 style="font-size:20pt">Tidal Records of the Harbour</h1>
<h2 style="font-size:14pt;font-family:'Liberation Sans',sans-serif">1 Introduction</h2>
<p>The harbour has kept tide records since the first gauge was set on the pier, and these records are the subject of this report.</p>
<h2 style="font-size:14pt;font-family:'Liberation Sans',sans-serif">2 Methods</h2>
<p><b>The following corollary holds for every station in the survey</b></p>
<p>It follows from the monthly means, which are taken over every tide of the month.</p>
<h3 style="font-size:14pt;font-family:'Liberation Sans',sans-serif">2.1 Sampling</h3>
<p>Each station was read once a month at low water.</p>
<p style="text-align:center"><b><i>x</i> = <i>a</i> + <i>b</i></b></p>
<h3 style="font-size:14pt;font-family:'Liberation Sans',sans-serif">2.2 Calibration</h3>
<p>Gauges were levelled against the benchmark each spring.</p>
<h2 style="font-size:14pt;font-family:'Liberation Sans',sans-serif">3 Results</h2>
<p>The mean rise was three millimetres a year.</p>`,
);

export const FINANCIAL_STATEMENT = page(
  'Statement',
  `<h1>Consolidated Statement of Operations</h1>
<p>The table below sets out the results of the last three years, in thousands of dollars.</p>
<table style="border-collapse:collapse;width:100%;font-size:10pt">
<tr><td></td><td style="text-align:right;font-weight:bold">2023</td><td style="text-align:right;font-weight:bold">2022</td><td style="text-align:right;font-weight:bold">Change</td></tr>
<tr><td>Revenue from harbour dues</td><td style="text-align:right">$ 12,450</td><td style="text-align:right">$ 11,020</td><td style="text-align:right">13.0%</td></tr>
<tr><td>Fees for berthing and storage of<br>vessels over twelve metres</td><td style="text-align:right">3,210</td><td style="text-align:right">2,980</td><td style="text-align:right">7.7%</td></tr>
<tr><td>Operating expenses</td><td style="text-align:right">(9,870)</td><td style="text-align:right">(9,115)</td><td style="text-align:right">8.3%</td></tr>
<tr><td>Net income</td><td style="text-align:right">$ 5,790</td><td style="text-align:right">$ 4,885</td><td style="text-align:right">18.5%</td></tr>
</table>
<p>Revenue rose with the number of visiting vessels, while costs grew with wages.</p>`,
);

/** A browser's default bordered table (border="1"): every cell framed on its own. */
export const BORDERED_TABLE = page(
  'Bordered',
  `<h1>Opening Hours</h1>
<p>The harbour office is open on these days.</p>
<table border="1">
<tr><th>Day</th><th>Hours</th></tr>
<tr><td>Monday</td><td>9:00 to 17:00</td></tr>
<tr><td>Tuesday</td><td>9:00 to 17:00</td></tr>
<tr><td>Saturday</td><td>10:00 to 13:00</td></tr>
</table>
<p>It is closed on public holidays.</p>`,
);

/** Two columns, the first paragraph opening with a drop cap. */
export const DROP_CAP_COLUMNS = page(
  'Drop cap',
  `<h1>The Harbour in Winter</h1>
<div style="column-count:2;column-gap:10mm;text-align:justify">
<p><span style="float:left;font-size:40pt;line-height:1;margin:2pt 4pt 0 0">W</span>inter on the northern coast begins with the first autumn gale, when the fishing fleet stays in harbour for days on end and the quays fill with nets laid out for mending by the crews who wait for the weather to turn.</p>
${PARAGRAPHS.map((p) => `<p>${p}</p>`).join('\n')}
<p>By the end of the season the last boats are lifted out and the harbour falls quiet until the spring, when the first of the crews return to paint their hulls.</p>
</div>`,
);

/** Draws text onto a canvas, which Chromium prints as an image: text with no text layer. */
function canvasOfText(lines: readonly string[], font: string): string {
  const draw = lines.map((line, i) => `c.fillText(${JSON.stringify(line)}, 40, ${100 + i * 120});`).join('');
  return `<canvas id="c" width="1400" height="${140 + lines.length * 120}" style="width:170mm"></canvas>
<script>const c = document.getElementById('c').getContext('2d'); c.fillStyle = '#fff'; c.fillRect(0, 0, 1400, 2000); c.fillStyle = '#123'; c.font = ${JSON.stringify(font)};${draw}</script>`;
}

/** A page of handwriting-like text as an image, with a printed caption as its only text layer. */
export const IMAGE_OF_TEXT = page(
  'Notes',
  `${canvasOfText(
    ['Notes from the harbour meeting', 'The breakwater needs new stone', 'before the winter storms arrive.', 'Ask the divers about the survey.', 'Tenders close on the first of May.', 'Lighting on the quay is too bright.', 'Next meeting in the boat shed.', 'Bring the tide tables and charts.', 'Winter storms took the old buoy.'],
    'italic 56px "Liberation Serif"',
  )}
<p style="font-size:8pt">Scanned notes, page 1</p>`,
);

export const BLANK_PAGE = page('Blank', '<div style="height:10mm"></div>');

/** A scanner's blank page: a white image over the whole page, nothing else. */
export const BLANK_SCAN = page(
  'Blank scan',
  `<canvas id="c" width="600" height="800" style="width:170mm"></canvas>
<script>const c = document.getElementById('c').getContext('2d'); c.fillStyle = '#fff'; c.fillRect(0, 0, 600, 800);</script>`,
);
