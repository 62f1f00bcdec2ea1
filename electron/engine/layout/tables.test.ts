import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPrintedPdf, printHtml, readPrintedPage, type PrintedPage } from '../../../test/printed-page.js';
import { parseHtmlTables, parseMarkdownTables } from '../../../shared/olmocr-bench/tables.js';
import { detectTables, type DetectedTable } from './tables.js';

const STYLE = `<style>
  body { font-family: 'Liberation Serif', serif; font-size: 11pt; line-height: 1.35; }
  p { margin: 0 0 10pt; }
  table { border-collapse: collapse; margin: 0 0 12pt; }
</style>`;

const page = (body: string) => `<!doctype html><html><head><meta charset="utf-8">${STYLE}</head><body>${body}</body></html>`;

/** A borderless table whose group labels ("Public", "Private") head runs of columns. */
const ENROLMENT_TABLE = `<table style="font-size: 9pt">
      <style>td, th { padding: 1pt 7pt; font-weight: normal; text-align: right; } td:first-child, th:first-child { text-align: left; padding-right: 30pt; } th.group { text-align: center; }</style>
      <tr><th></th><th class="group" colspan="3">Public</th><th class="group" colspan="3">Private</th></tr>
      <tr><th>Year</th><th>PK–12</th><th>PK–8</th><th>9–12</th><th>All</th><th>Elementary</th><th>Secondary</th></tr>
      <tr><td>2019</td><td>50,796</td><td>35,487</td><td>15,309</td><td>5,702</td><td>4,356</td><td>1,346</td></tr>
      <tr><td>2020</td><td>49,375</td><td>34,139</td><td>15,236</td><td>5,457</td><td>4,128</td><td>1,329</td></tr>
      <tr><td>2021</td><td>49,652</td><td>34,393</td><td>15,259</td><td>5,511</td><td>4,174</td><td>1,337</td></tr>
    </table>`;

const documents = {
  bordered: page(`
    <p>Parts list for the spring order, checked against the supplier's catalogue.</p>
    <table style="font-size: 10pt">
      <style>th, td { border: 1px solid #000; padding: 3pt 6pt; text-align: left; vertical-align: top; }</style>
      <tr><th>Item</th><th colspan="2">Size</th><th>Note</th></tr>
      <tr><td rowspan="2">Bolt</td><td>M4</td><td>10</td><td>zinc<br>plated</td></tr>
      <tr><td>M5</td><td>12</td><td>a|b &lt;c&gt; &amp; d</td></tr>
      <tr><td>Washer</td><td colspan="2">any</td><td>bulk</td></tr>
    </table>
    <p>Orders close on Friday.</p>`),
  tight: page(`
    <table style="font-size: 10pt">
      <style>td, th { border: 0.75pt solid #000; padding: 0 1pt; }</style>
      <tr><th>A</th><th>B</th><th>C</th></tr>
      <tr><td>1</td><td>2</td><td>3</td></tr>
      <tr><td>4</td><td>5</td><td>6</td></tr>
    </table>`),
  bevelled: page(`
    <table border="1" style="border-collapse: separate">
      <tr><th>Name</th><th colspan="2">Scores</th></tr>
      <tr><td rowspan="2">Alice</td><td>11</td><td>12</td></tr>
      <tr><td>13</td><td>14</td></tr>
      <tr><td>Bob</td><td>15</td><td>16</td></tr>
    </table>`),
  borderless: page(`
    <p>Rainfall by station over three months.</p>
    <table>
      <style>td, th { padding: 2pt 16pt 2pt 0; } .n { text-align: right; }</style>
      <tr><th>Station</th><th class="n">April</th><th class="n">May</th><th class="n">June</th></tr>
      <tr><td>Ashby</td><td class="n">54.2</td><td class="n">61.0</td><td class="n">38.7</td></tr>
      <tr><td>Brent Hill</td><td class="n">47.9</td><td class="n">55.3</td><td class="n">41.2</td></tr>
      <tr><td>Carrow</td><td class="n">102.6</td><td class="n">88.1</td><td class="n">70.4</td></tr>
    </table>
    <p>June was the driest month at every station.</p>`),
  dense: page(`
    <table style="font-size: 8pt">
      <style>td, th { padding: 1pt 5pt 1pt 0; text-align: right; } td:first-child, th:first-child { text-align: left; }</style>
      <tr><th>Stretch</th><th>2016</th><th>2017</th><th>2018</th><th>2019</th><th>2020</th></tr>
      <tr><td>Longdale</td><td>90.2</td><td>109.0</td><td>26.8</td><td>32.5</td><td>22.8</td></tr>
      <tr><td>Black Moss</td><td>39.3</td><td>23.9</td><td>109.0</td><td>64.0</td><td>142.4</td></tr>
      <tr><td>Kirk Ings</td><td>99.6</td><td>67.2</td><td>29.2</td><td>46.3</td><td>67.0</td></tr>
    </table>`),
  booktabs: page(`
    <p>Table 2: Accuracy on two benchmarks.</p>
    <table style="border-top: 1.5pt solid #000; border-bottom: 1.5pt solid #000">
      <style>td, th { padding: 2pt 12pt; text-align: center; font-weight: normal; } .mid th { border-bottom: 0.6pt solid #000; }</style>
      <tr><th></th><th colspan="2" style="border-bottom: 0.6pt solid #000">Dataset A</th><th colspan="2" style="border-bottom: 0.6pt solid #000">Dataset B</th></tr>
      <tr class="mid"><th>Model</th><th>Acc</th><th>F1</th><th>Acc</th><th>F1</th></tr>
      <tr><td>Baseline</td><td>71.2</td><td>68.0</td><td>64.5</td><td>60.1</td></tr>
      <tr><td>Ours</td><td>78.9</td><td>75.4</td><td>70.2</td><td>66.8</td></tr>
    </table>
    <p>Our model is better on both.</p>`),
  wrappedHeader: page(`
    <p>Table 3: Effort by season.</p>
    <table style="border-top: 1.5pt solid #000; border-bottom: 1.5pt solid #000">
      <style>td, th { padding: 2pt 10pt; text-align: right; font-weight: normal; } th { width: 52pt; border-bottom: 0.6pt solid #000; }</style>
      <tr><th style="text-align: left">Season</th><th>Stretches walked</th><th>Volunteer hours</th><th>Species recorded</th></tr>
      <tr><td style="text-align: left">2022</td><td>39</td><td>412</td><td>54</td></tr>
      <tr><td style="text-align: left">2023</td><td>40</td><td>436</td><td>57</td></tr>
      <tr><td style="text-align: left">2024</td><td>42</td><td>458</td><td>55</td></tr>
    </table>`),
  formFields: page(`
    <div style="display: grid; grid-template-columns: 70pt 120pt 70pt 120pt; row-gap: 4pt">
      <span>Name:</span><span>Ana Ruiz</span><span>Member no.:</span><span>NV-20417</span>
      <span>Stretch:</span><span>Upper Carr, 2.1 km</span><span>Since:</span><span>March 2019</span>
      <span>Phone:</span><span>01632 960 418</span><span>First aid:</span><span>Yes, renewed 2025</span>
    </div>`),
  columnTable: page(`
    <style>
      .cols { column-count: 2; column-gap: 20pt; text-align: justify; font-size: 10pt; }
      .cols table { margin: 6pt 0; border-top: 1pt solid #000; border-bottom: 1pt solid #000; break-inside: avoid; }
      .cols td, .cols th { padding: 1pt 8pt; text-align: right; font-weight: normal; } .cols th { border-bottom: 0.5pt solid #000; }
    </style>
    <div class="cols">
<p>We measured the flow at four gauges along the river during the spring floods and compare the peaks with the values predicted by the model, which was calibrated on the previous three seasons of data.</p>
<table><tr><th>Gauge</th><th>Peak</th><th>Model</th><th>Error</th></tr>
<tr><td>Ashby</td><td>112</td><td>108</td><td>4</td></tr>
<tr><td>Brent</td><td>95</td><td>99</td><td>-4</td></tr>
<tr><td>Carrow</td><td>143</td><td>131</td><td>12</td></tr>
<tr><td>Dunmore</td><td>77</td><td>80</td><td>-3</td></tr></table>
<p>The model underestimates the largest peak, at Carrow, where a tributary joins just above the gauge and its contribution was not part of the calibration data set at all.</p>
<p>Over the whole season the error is small compared with the natural variation between years, which suggests that the model is good enough for planning purposes, though not for warnings. We return to the question of warnings in the next section, where the timing of the peaks matters more than their height and where the model has to be run several hours ahead of the flood.</p>
<p>Further work should look at the tributaries, which respond faster than the main river and carry most of the sediment during the first hours of a flood.</p>
</div>`),
  twoColumns: page(`
    <div style="column-count: 2; column-gap: 18pt; text-align: justify">
      ${Array.from({ length: 14 }, (_, i) => `<p>Paragraph ${i + 1} of the article keeps going with ordinary running text that wraps across several lines in its column, as prose does in a journal.</p>`).join('')}
    </div>`),
  threeColumns: page(`
    <div style="column-count: 3; column-gap: 14pt">
      ${Array.from({ length: 18 }, (_, i) => `<p>Section ${i + 1} continues the story in narrow columns where each line holds only a few words of the text.</p>`).join('')}
    </div>`),
  statement: page(`
    <p>(in thousands of dollars)</p>
    <table style="font-size: 10pt">
      <style>td, th { padding: 2pt 0 2pt 12pt; } .n { text-align: right; } td:first-child { padding-left: 0; padding-right: 60pt; }</style>
      <tr><th></th><th></th><th class="n">2023</th><th></th><th class="n">2022</th></tr>
      <tr><td>Net revenue</td><td>$</td><td class="n">1,284,310</td><td>$</td><td class="n">1,190,455</td></tr>
      <tr><td>Cost of revenue</td><td></td><td class="n">(742,118)</td><td></td><td class="n">(701,932)</td></tr>
      <tr><td>Operating income</td><td></td><td class="n">222,406</td><td></td><td class="n">190,456</td></tr>
      <tr><td>Net income</td><td>$</td><td class="n">163,944</td><td>$</td><td class="n">137,738</td></tr>
    </table>`),
  groupedResults: page(`
    <p>Table 3: Accuracy of instruction-tuned models.</p>
    <table style="font-size: 10pt; border-top: 1.2pt solid #000; border-bottom: 1.2pt solid #000">
      <style>td, th { padding: 1pt 14pt 1pt 0; } .n { text-align: right; } tr.group td { padding-top: 9pt; } thead th { border-bottom: 0.8pt solid #000; }</style>
      <thead><tr><th>Model</th><th class="n">Size</th><th class="n">MMLU</th><th class="n">GSM8K</th></tr></thead>
      <tr class="group"><td colspan="4"><i>Small models</i></td></tr>
      <tr><td>Alpaca-7B</td><td class="n">7B</td><td class="n">41.2</td><td class="n">12.5</td></tr>
      <tr><td>Mistral-7B</td><td class="n">7B</td><td class="n">60.1</td><td class="n">39.6</td></tr>
      <tr class="group"><td colspan="4"><i>Medium-sized models</i></td></tr>
      <tr><td>Llama-2-13B</td><td class="n">13B</td><td class="n">54.8</td><td class="n">28.7</td></tr>
      <tr><td>Orca-13B</td><td class="n">13B</td><td class="n">57.3</td><td class="n">43.0</td></tr>
    </table>
    <p>Larger models are more accurate on every benchmark.</p>`),
  groupedHeader: page(`
    <p>Table 4: Enrolment by control of school, in thousands.</p>
    ${ENROLMENT_TABLE}
    <p>Enrolment in private schools fell in 2020 and has not recovered.</p>`),
  // A caption set flush left in the table's type, right above it, with no "Table N" label; it
  // ends where it lies, by chance, centred over the first three columns.
  leftCaption: page(`
    <p style="font-size: 9pt; margin-bottom: 3pt">Pupils by school and level (000s)</p>
    ${ENROLMENT_TABLE}`),
  // A labelled caption centred on the text block, above a narrower table set left: by chance it
  // lies centred over a few of the table's columns.
  centredCaption: page(`
    <p style="font-size: 9pt; margin-bottom: 3pt; text-align: center">Tab. 3: Pupils, thousands</p>
    ${ENROLMENT_TABLE}`),
  // Figures whose thousands are set apart by thin and word spaces, in a sans face.
  spacedThousands: page(`
    <p>Households connected to the network, by district.</p>
    <table style="font-family: 'Liberation Sans', sans-serif; font-size: 10pt">
      <style>td, th { padding: 2pt 14pt 2pt 0; } .n { text-align: right; }</style>
      <tr><th>District</th><th class="n">Households</th><th class="n">Connected</th><th class="n">Share</th></tr>
      <tr><td>Northfield</td><td class="n">18&thinsp;400</td><td class="n">12&thinsp;950</td><td class="n">70%</td></tr>
      <tr><td>Eastmoor</td><td class="n">1&thinsp;250&thinsp;000</td><td class="n">980&thinsp;500</td><td class="n">78%</td></tr>
      <tr><td>Southgate</td><td class="n">9 250</td><td class="n">6 105</td><td class="n">66%</td></tr>
    </table>
    <p>Eastmoor was connected first.</p>`),
  // A survey table: years over groups of columns, a group heading over three of each, and
  // headings wrapped onto several lines set at the foot of the header, so that their first lines
  // stand alone on lines above the others.
  stackedHeader: page(`
    <p>Dwellings surveyed in the two rounds, by region.</p>
    <table style="font-size: 9pt">
      <style>td, th { padding: 1pt 8pt; font-weight: normal; text-align: right; vertical-align: bottom; } td:first-child, th:first-child { text-align: left; } th.group { text-align: center; } th.narrow { width: 34pt; }</style>
      <tr><th></th><th class="group" colspan="4">2019</th><th class="group" colspan="4">2021</th></tr>
      <tr><th rowspan="2">Region</th><th rowspan="2" class="narrow">all listed homes in area</th><th class="group" colspan="3">Damp homes</th><th rowspan="2" class="narrow">all listed homes in area</th><th class="group" colspan="3">Damp homes</th></tr>
      <tr><th>no.</th><th>(%)</th><th class="narrow">Crude odds ratio</th><th>no.</th><th>(%)</th><th class="narrow">Crude odds ratio</th></tr>
      <tr><td>Coast</td><td>58,340</td><td>12,915</td><td>(22.1)</td><td>1.0</td><td>57,902</td><td>12,488</td><td>(21.6)</td><td>1.0</td></tr>
      <tr><td>Uplands</td><td>47,115</td><td>11,620</td><td>(24.7)</td><td>1.2</td><td>48,330</td><td>11,874</td><td>(24.6)</td><td>1.2</td></tr>
      <tr><td>Valleys</td><td>13,472</td><td>2,903</td><td>(21.5)</td><td>0.9</td><td>13,610</td><td>3,188</td><td>(23.4)</td><td>1.1</td></tr>
      <tr><td>Islands</td><td>3,871</td><td>652</td><td>(16.9)</td><td>0.7</td><td>3,954</td><td>671</td><td>(17.0)</td><td>0.7</td></tr>
    </table>
    <p>Most reports came from the uplands.</p>`),
  // Row labels led by dots to their figures, as government reports set them; and a table of
  // contents, whose titles are led to one page number each, below it.
  ledRows: page(`
    <p>Trips taken, by distance, in millions.</p>
    <table style="font-size: 10pt">
      <style>td, th { padding: 1pt 10pt 1pt 0; font-weight: normal; text-align: right; } td:first-child, th:first-child { text-align: left; }</style>
      <tr><th>Distance</th><th>2018</th><th>2019</th><th>2020</th></tr>
      <tr><td>Under 1 mile ....................</td><td>812</td><td>798</td><td>640</td></tr>
      <tr><td>1 to 5 miles ....................</td><td>1,204</td><td>1,187</td><td>955</td></tr>
      <tr><td>5 to 25 miles ...................</td><td>633</td><td>650</td><td>512</td></tr>
      <tr><td>Over 25 miles ...................</td><td>98</td><td>101</td><td>77</td></tr>
    </table>
    <p style="margin-top: 24pt">Contents</p>
    <table style="font-size: 10pt">
      <style>td { padding: 1pt 10pt 1pt 0; }</style>
      <tr><td>1</td><td>Walking ..........................................</td><td>3</td></tr>
      <tr><td>2</td><td>Cycling ..........................................</td><td>9</td></tr>
      <tr><td>3</td><td>Driving ..........................................</td><td>14</td></tr>
    </table>`),
  labelledPhrases: page(`
    <p>Planning assumptions for the next budget.</p>
    <table style="font-size: 10pt; width: 100%">
      <style>td, th { padding: 1pt 0; font-weight: normal; text-align: left; vertical-align: top; } td + td, th + th { text-align: right; }</style>
      <tr><th>Item</th><th>Assumption</th></tr>
      <tr><td>Ticket sales</td><td>Grow by the rate of the last three seasons</td></tr>
      <tr><td>Staff costs per member of<br>the permanent team</td><td>Rise between 1.5% and 2.5% a year, with the<br>new pay scale from the second year</td></tr>
      <tr><td>Energy</td><td>Prices held at the level agreed in the contract</td></tr>
      <tr><td>Repairs to the hall</td><td>Spread over four years from the spring</td></tr>
    </table>
    <p>The board reviews these figures every quarter.</p>`),
  authorsSideBySide: page(`
    <table style="width: 100%; font-size: 11pt">
      <style>td { text-align: center; width: 50%; padding: 0; }</style>
      <tr><td>Mara Quist</td><td>Tobias Fenn</td></tr>
      <tr><td>Department of Soil Science</td><td>Institute of Hydrology</td></tr>
      <tr><td>Northfield University</td><td>Coastal Research Centre</td></tr>
      <tr><td>Harrow, Westland</td><td>Port Ellis, Eastmarch</td></tr>
    </table>`),
  numberedReferences: page(`
    <table style="font-size: 10pt">
      <style>td { padding: 0 12pt 2pt 0; vertical-align: top; }</style>
      <tr><td>[1]</td><td>Quist, M. Soil moisture under grass</td></tr>
      <tr><td>[2]</td><td>Fenn, T. Tides and the lower river</td></tr>
      <tr><td>[3]</td><td>Orme, L. Sediment in flood water</td></tr>
      <tr><td>[4]</td><td>Vale, R. Drainage of clay fields</td></tr>
      <tr><td>[5]</td><td>Quist, M. Roots and rainfall</td></tr>
    </table>`),
  listsAndPairs: page(`
    <ul><li>First point to make</li><li>Second point to make</li><li>Third point to make</li></ul>
    <ol><li>Open the valve</li><li>Wait ten minutes</li><li>Close the valve</li></ol>
    <table style="border-top: 1pt solid #000; border-bottom: 1pt solid #000">
      <style>td { padding: 1pt 24pt 1pt 0; }</style>
      <tr><td>Name:</td><td>Ada Byron</td></tr>
      <tr><td>Born:</td><td>10 December 1815</td></tr>
      <tr><td>Known for:</td><td>Notes on the Analytical Engine</td></tr>
    </table>`),
};

type Name = keyof typeof documents;
const pdfs = new Map<Name, PDFDocumentProxy>();
const pages = new Map<Name, PrintedPage>();

beforeAll(async () => {
  const names = Object.keys(documents) as Name[];
  const printed = await printHtml(names.map((name) => documents[name]));
  for (const [i, name] of names.entries()) {
    const pdf = await openPrintedPdf(printed[i]!);
    pdfs.set(name, pdf);
    pages.set(name, await readPrintedPage(pdf));
  }
});

afterAll(async () => {
  for (const pdf of pdfs.values()) await pdf.destroy();
});

function tablesOf(name: Name): DetectedTable[] {
  const printed = pages.get(name)!;
  return detectTables(printed.runs, printed.rules, printed);
}

describe('detectTables on ruled tables', () => {
  it('rebuilds row and column spans from missing inner rules, as an HTML table', () => {
    const [table, ...others] = tablesOf('bordered');
    expect(others).toEqual([]);
    expect(table!.markdown).toBe(
      [
        '<table>',
        '<tr><th>Item</th><th colspan="2">Size</th><th>Note</th></tr>',
        '<tr><td rowspan="2">Bolt</td><td>M4</td><td>10</td><td>zinc<br>plated</td></tr>',
        '<tr><td>M5</td><td>12</td><td>a|b &lt;c&gt; &amp; d</td></tr>',
        '<tr><td>Washer</td><td colspan="2">any</td><td>bulk</td></tr>',
        '</table>',
      ].join('\n'),
    );
  });

  it('takes the runs inside the grid and leaves the text around it', () => {
    const printed = pages.get('bordered')!;
    const [table] = tablesOf('bordered');
    const taken = new Set(table!.runIndices);
    const left = printed.runs.filter((_, i) => !taken.has(i)).map((run) => run.text).join(' ');
    expect(left).toContain('Parts list for the spring order');
    expect(left).toContain('Orders close on Friday.');
    expect(left).not.toContain('Washer');
    expect(table!.box.y0).toBeGreaterThan(printed.runs.find((run) => run.text.startsWith('Parts list'))!.y1);
  });

  it('cuts a text item that runs across a cell border into the cells on either side', () => {
    const printed = pages.get('tight')!;
    // The premise: pdf.js reports some neighbouring cells as one item.
    expect(printed.runs.some((run) => /\S \S/.test(run.text))).toBe(true);
    expect(tablesOf('tight').map((t) => t.markdown)).toEqual(['| A | B | C |\n| --- | --- | --- |\n| 1 | 2 | 3 |\n| 4 | 5 | 6 |']);
  });

  it('reads the bevelled, separated cell borders of a plain border="1" table', () => {
    expect(tablesOf('bevelled').map((t) => t.markdown)).toEqual([
      [
        '<table>',
        '<tr><th>Name</th><th colspan="2">Scores</th></tr>',
        '<tr><td rowspan="2">Alice</td><td>11</td><td>12</td></tr>',
        '<tr><td>13</td><td>14</td></tr>',
        '<tr><td>Bob</td><td>15</td><td>16</td></tr>',
        '</table>',
      ].join('\n'),
    ]);
  });
});

describe('detectTables on tables without vertical rules', () => {
  it('finds a borderless table from column alignment, right-aligned numbers included', () => {
    expect(tablesOf('borderless').map((t) => t.markdown)).toEqual([
      [
        '| Station | April | May | June |',
        '| --- | --- | --- | --- |',
        '| Ashby | 54.2 | 61.0 | 38.7 |',
        '| Brent Hill | 47.9 | 55.3 | 41.2 |',
        '| Carrow | 102.6 | 88.1 | 70.4 |',
      ].join('\n'),
    ]);
  });

  it('reads a financial statement whose currency signs stand apart from the amounts as one table', () => {
    const tables = tablesOf('statement');
    expect(tables.map((t) => t.markdown)).toEqual([
      [
        '|  | 2023 | 2022 |',
        '| --- | --- | --- |',
        '| Net revenue | 1,284,310 | 1,190,455 |',
        '| Cost of revenue | (742,118) | (701,932) |',
        '| Operating income | 222,406 | 190,456 |',
        '| Net income | 163,944 | 137,738 |',
      ].join('\n'),
    ]);
    const printed = pages.get('statement')!;
    const signs = printed.runs.flatMap((run, i) => (run.text.trim() === '$' ? [i] : []));
    expect(signs).toHaveLength(4);
    expect(tables[0]!.runIndices).toEqual(expect.arrayContaining(signs));
  });

  it('keeps a results table whole across its group labels, one reaching across the columns beside it', () => {
    const tables = tablesOf('groupedResults');
    expect(tables).toHaveLength(1);
    const markdown = tables[0]!.markdown;
    expect(markdown).toContain('<tr><th>Model</th><th>Size</th><th>MMLU</th><th>GSM8K</th></tr>');
    expect(markdown).toContain('<tr><td colspan="4">Medium-sized models</td></tr>');
    expect(markdown).toContain('<tr><td>Orca-13B</td><td>13B</td><td>57.3</td><td>43.0</td></tr>');
  });

  it('keeps apart columns of figures in small type with narrow gaps', () => {
    expect(tablesOf('dense').map((t) => t.markdown)).toEqual([
      [
        '| Stretch | 2016 | 2017 | 2018 | 2019 | 2020 |',
        '| --- | --- | --- | --- | --- | --- |',
        '| Longdale | 90.2 | 109.0 | 26.8 | 32.5 | 22.8 |',
        '| Black Moss | 39.3 | 23.9 | 109.0 | 64.0 | 142.4 |',
        '| Kirk Ings | 99.6 | 67.2 | 29.2 | 46.3 | 67.0 |',
      ].join('\n'),
    ]);
  });

  it('reads a booktabs table with a grouped header row spanning columns', () => {
    const [table, ...others] = tablesOf('booktabs');
    expect(others).toEqual([]);
    expect(table!.markdown).toBe(
      [
        '<table>',
        '<tr><th></th><th colspan="2">Dataset A</th><th colspan="2">Dataset B</th></tr>',
        '<tr><th>Model</th><th>Acc</th><th>F1</th><th>Acc</th><th>F1</th></tr>',
        '<tr><td>Baseline</td><td>71.2</td><td>68.0</td><td>64.5</td><td>60.1</td></tr>',
        '<tr><td>Ours</td><td>78.9</td><td>75.4</td><td>70.2</td><td>66.8</td></tr>',
        '</table>',
      ].join('\n'),
    );
  });

  it('keeps the grouped header of a borderless table, each group label over the columns it is centred on', () => {
    const printed = pages.get('groupedHeader')!;
    const [table, ...others] = tablesOf('groupedHeader');
    expect(others).toEqual([]);
    expect(table!.markdown).toContain('<tr><th></th><th colspan="3">Public</th><th colspan="3">Private</th></tr>');
    const taken = new Set(table!.runIndices);
    const left = printed.runs.filter((_, i) => !taken.has(i)).map((run) => run.text).join(' ');
    expect(left).not.toMatch(/Public|Private|Year/);
    // Scored as olmOCR-Bench scores tables: each figure is headed by its group and its column.
    const [graph] = parseHtmlTables(table!.markdown);
    const headingsOf = (cell: string) => {
      const key = [...graph!.cellText].find(([, text]) => text === cell)![0];
      return graph!.topHeading.get(key)!.map((heading) => graph!.cellText.get(heading));
    };
    expect(headingsOf('15,236')).toEqual(expect.arrayContaining(['Public', '9–12']));
    expect(headingsOf('5,457')).toEqual(expect.arrayContaining(['Private', 'All']));
    expect(headingsOf('5,457')).not.toContain('Public');
  });

  it('leaves a caption above a grouped-header table out of it, set flush left or labelled "Tab. N"', () => {
    for (const name of ['leftCaption', 'centredCaption'] as const) {
      const printed = pages.get(name)!;
      const [table, ...others] = tablesOf(name);
      expect(others).toEqual([]);
      expect(table!.markdown).not.toMatch(/Pupils/);
      expect(table!.markdown).toContain('<tr><th></th><th colspan="3">Public</th><th colspan="3">Private</th></tr>');
      const taken = new Set(table!.runIndices);
      expect(printed.runs.filter((_, i) => !taken.has(i)).map((run) => run.text).join(' ')).toMatch(/Pupils/);
    }
  });

  it('keeps every line of a deep header over its table: years, groups and headings whose first lines stand alone', () => {
    const printed = pages.get('stackedHeader')!;
    const [table, ...others] = tablesOf('stackedHeader');
    expect(others).toEqual([]);
    const taken = new Set(table!.runIndices);
    expect(printed.runs.filter((_, i) => !taken.has(i)).map((run) => run.text).join(' ')).not.toMatch(/2019|2021|Damp|listed|Crude/);
    const [graph] = parseHtmlTables(table!.markdown);
    const headingsOf = (cell: string) => {
      const key = [...graph!.cellText].find(([, text]) => text === cell)![0];
      return graph!.topHeading.get(key)!.map((heading) => graph!.cellText.get(heading));
    };
    expect(headingsOf('11,874')).toEqual(expect.arrayContaining(['2021', 'Damp homes', 'no.']));
    expect(headingsOf('(16.9)')).toEqual(expect.arrayContaining(['2019', 'Damp homes', '(%)']));
    expect(headingsOf('671')).not.toContain('2019');
    expect(headingsOf('3,871').join(' ')).toMatch(/all listed homes/);
  });

  it('reads rows whose labels are led by dots to several figures as a table, and leaves a table of contents as text', () => {
    const [table, ...others] = tablesOf('ledRows');
    expect(others).toEqual([]);
    const [graph] = [...parseMarkdownTables(table!.markdown), ...parseHtmlTables(table!.markdown)];
    expect(table!.markdown).not.toMatch(/Walking|Cycling/);
    const key = [...graph!.cellText].find(([, text]) => text === '1,187')![0];
    expect(graph!.up.get(key)!.map((k) => graph!.cellText.get(k))).toEqual(['798']);
    expect(graph!.left.get(key)!.map((k) => graph!.cellText.get(k))).toEqual(['1,204']);
  });

  it('keeps a figure whose thousands are set apart by a space in one cell', () => {
    const markdown = tablesOf('spacedThousands').map((t) => t.markdown.replace(/\u2009/gu, ' '));
    expect(markdown).toEqual([
      [
        '| District | Households | Connected | Share |',
        '| --- | --- | --- | --- |',
        '| Northfield | 18 400 | 12 950 | 70% |',
        '| Eastmoor | 1 250 000 | 980 500 | 78% |',
        '| Southgate | 9 250 | 6 105 | 66% |',
      ].join('\n'),
    ]);
  });

  it('joins header cells that wrap onto two lines above a booktabs rule into one header row', () => {
    expect(tablesOf('wrappedHeader').map((t) => t.markdown)).toEqual([
      [
        '| Season | Stretches walked | Volunteer hours | Species recorded |',
        '| --- | --- | --- | --- |',
        '| 2022 | 39 | 412 | 54 |',
        '| 2023 | 40 | 436 | 57 |',
        '| 2024 | 42 | 458 | 55 |',
      ].join('\n'),
    ]);
  });

  it('finds a table set in one column of a two-column page, apart from the prose beside it', () => {
    expect(tablesOf('columnTable').map((t) => t.markdown)).toEqual([
      [
        '| Gauge | Peak | Model | Error |',
        '| --- | --- | --- | --- |',
        '| Ashby | 112 | 108 | 4 |',
        '| Brent | 95 | 99 | -4 |',
        '| Carrow | 143 | 131 | 12 |',
        '| Dunmore | 77 | 80 | -3 |',
      ].join('\n'),
    ]);
  });
});

describe('detectTables on two columns of labels and phrases', () => {
  it('reads labels set flush left beside phrases as one table, each label with its phrase, cells wrapped together joined', () => {
    expect(tablesOf('labelledPhrases').map((t) => t.markdown)).toEqual([
      [
        '| Item | Assumption |',
        '| --- | --- |',
        '| Ticket sales | Grow by the rate of the last three seasons |',
        '| Staff costs per member of the permanent team | Rise between 1.5% and 2.5% a year, with the new pay scale from the second year |',
        '| Energy | Prices held at the level agreed in the contract |',
        '| Repairs to the hall | Spread over four years from the spring |',
      ].join('\n'),
    ]);
  });

  it('finds no table in author blocks set side by side, nor in a numbered list of references', () => {
    expect(tablesOf('authorsSideBySide')).toEqual([]);
    expect(tablesOf('numberedReferences')).toEqual([]);
  });
});

describe('detectTables leaves text that only lines up', () => {
  it('finds no table in a grid of form fields, labels ending in colons', () => {
    expect(tablesOf('formFields')).toEqual([]);
  });

  it('finds no table in two-column prose', () => {
    expect(tablesOf('twoColumns')).toEqual([]);
  });

  it('finds no table in three-column prose', () => {
    expect(tablesOf('threeColumns')).toEqual([]);
  });

  it('finds no table in bulleted and numbered lists or key-value pairs between rules', () => {
    expect(pages.get('listsAndPairs')!.rules.length).toBeGreaterThanOrEqual(2);
    expect(tablesOf('listsAndPairs')).toEqual([]);
  });

  it('finds nothing on a page without text', () => {
    expect(detectTables([], [], { width: 595, height: 842 })).toEqual([]);
  });
});
