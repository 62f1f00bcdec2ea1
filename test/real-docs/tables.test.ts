/**
 * Tables of real pages (real-docs, read at test time), checked the way the benchmark checks them:
 * a cell with its neighbours and its column's heading, by olmOCR-Bench's table rule.
 */

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { needs, REAL_DOCS } from '../environment.js';
import { textEngineMarkdown } from '../text-engine-markdown.js';
import { REAL_DOCS_DIR, realDocsProblem } from './real-docs-folder.js';
import { tableCheck } from '../bench-verdicts.js';

const ICDAR_US = path.join(REAL_DOCS_DIR, 'icdar2013/competition-dataset-us');
const ICDAR_EU = path.join(REAL_DOCS_DIR, 'icdar2013/competition-dataset-eu');

describe('tables of real pages', needs(REAL_DOCS, realDocsProblem), () => {
  it('keeps the column headings of a long table that every page repeats at its top, under its top rule and apart from the caption', async () => {
    // Pages 3-7 of this report print one table's headings at the same height, as running heads are.
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-017.pdf'), 'all');
    expect(tableCheck(markdown, { cell: '28,873', top_heading: 'White' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '7,707', top_heading: 'Race/ethnicity' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '2004', top_heading: 'Year' })).toBe('passed');
    // the caption's second line, above the table's top rule, stays the caption's
    expect(markdown).toContain('by race/ethnicity: Fall 1996 through fall 2021');
    expect(tableCheck(markdown, { cell: '1996 through fall 2021' })).not.toBe('passed');
  }, 120_000);

  it('parts rows of figures that a grid ruled only around its columns draws in one box', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-008.pdf'), 1);
    expect(tableCheck(markdown, { cell: '1,530', left: '3-year-olds', up: 'Head Start Group', right: '1,029' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '4,667', up: '2,108', left: '1,884' })).toBe('passed');
  }, 120_000);

  it('parts a body row ruled only above and below into the columns its header rules draw', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_EU, 'eu-018.pdf'), 1);
    expect(tableCheck(markdown, { cell: 'Austria', right: 'Single', down: 'Germany' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '290', left: '0.8', right: '0.7', top_heading: 'N' })).toBe('passed');
  }, 120_000);
  it('keeps a statistical table whole across wrapped row labels and group labels, its wrapped column headings in one cell', async () => {
    // Labels wrap onto a second line set tighter than the rows ("American Indian/Alaska" over "Native");
    // group labels and subgroup labels stand on lines of their own between rows of figures.
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-024.pdf'), 2);
    expect(tableCheck(markdown, { cell: 'American Indian/Alaska Native', up: 'Asian/Paciic Islander', right: '707', top_heading: 'Characteristic' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '(9.3)', left: '512', up: '(8.1)', top_heading: '2009' })).toBe('passed');
    expect(tableCheck(markdown, { cell: 'Midwest', up: 'Northeast', right: '29,202', top_heading: 'Characteristic' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '61,206', top_heading: 'total occupied housing units' })).toBe('passed');
    expect(tableCheck(markdown, { cell: 'Male', down: 'White, non-Hispanic' })).toBe('passed');
  }, 120_000);

  it('keeps a header of years over spanners over headings wrapped onto four lines, the lone first line of one included, spanners in lower case too', async () => {
    // Page 3: "2007" and "2009" over "Unhealthy housing units" over "total" / "occupied" / "housing" / "units".
    const years = await textEngineMarkdown(path.join(ICDAR_US, 'us-024.pdf'), 3);
    expect(tableCheck(years, { cell: '12,549', top_heading: '2009' })).toBe('passed');
    expect(tableCheck(years, { cell: '218', top_heading: '2007' })).toBe('passed');
    expect(tableCheck(years, { cell: '218', top_heading: '2009' })).not.toBe('passed');
    // Page 5: the headings make a block of their own, with "occupied" alone on a line, over the table below.
    const spanners = await textEngineMarkdown(path.join(ICDAR_US, 'us-024.pdf'), 5);
    expect(tableCheck(spanners, { cell: '(38.9)', top_heading: 'Rodent seen in unit recently' })).toBe('passed');
    expect(tableCheck(spanners, { cell: '469', top_heading: 'Leaks during preceding 12 months' })).toBe('passed');
    // Page 6: a spanner of four words in lower case ("no working smoke alarm") beside one in capitals.
    const lowercase = await textEngineMarkdown(path.join(ICDAR_US, 'us-024.pdf'), 6);
    expect(tableCheck(lowercase, { cell: '(4.6–6.3)', top_heading: 'no working smoke alarm' })).toBe('passed');
    expect(tableCheck(lowercase, { cell: '446', top_heading: 'Peeling paint' })).toBe('passed');
  }, 120_000);

  it('attaches headings that span columns, marked by rules drawn under them, to the columns under those rules', async () => {
    // "Number of teachers" over Total, Public and Private; "Control" over Public and Private only.
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-018.pdf'), 4);
    expect(tableCheck(markdown, { cell: '3,138', left: '1997', top_heading: 'Number of teachers' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '2,746', top_heading: 'Control' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '3,138', top_heading: 'Control' })).not.toBe('passed');
    expect(tableCheck(markdown, { cell: '83', left: '222', top_heading: 'Number of new teacher hires' })).toBe('passed');
  }, 120_000);
  it('parts a ruled column that prints several columns of figures, its heading across them over the headings under it', async () => {
    // Rules part only the label column from the figures; the figures keep to three columns of their own.
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-035a.pdf'), 2);
    expect(tableCheck(markdown, { cell: '0.1477', left: '0.1005', right: '22,759,163', up: '0.2046', top_heading: 'Proportion (20+ years)' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '6,493,373', up: '3,533,692', top_heading: 'Total' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '0.0156', top_heading: 'U.S. population' })).toBe('passed');
    expect(tableCheck(markdown, { cell: 'Proportion (total)', right: 'Proportion (20+ years)', up: 'U.S. population' })).toBe('passed');
  }, 120_000);

  it('writes footnote marks on figures and headings as printed, not escaped', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_EU, 'eu-004.pdf'), 11);
    expect(tableCheck(markdown, { cell: '13', up: '16', top_heading: '1995*', down: '11' })).toBe('passed');
  }, 120_000);
  it('parts a label column ruled as one cell beside figures ruled row by row into its rows', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-009.pdf'), 1);
    expect(tableCheck(markdown, { cell: '26,000', left: 'Consultant Services', up: '352,000' })).toBe('passed');
    expect(tableCheck(markdown, { cell: 'Office Rent', up: 'Bad Debts', right: '170,000', down: 'Consumable Supplies' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '3,088,000', left: 'Total Costs' })).toBe('passed');
  }, 120_000);

  it('keeps a header boxed apart from the body, as one table with it', async () => {
    // Header, body and total rows each boxed, double rules between; the figures keep to columns the rules do not draw.
    const bands = await textEngineMarkdown(path.join(ICDAR_EU, 'eu-026.pdf'), 4);
    expect(tableCheck(bands, { cell: '75.2', left: '344', up: 'Percent', top_heading: 'Percent' })).toBe('passed');
    expect(tableCheck(bands, { cell: '23518', top_heading: 'Mean Loss' })).toBe('passed');
    // A header row ruled into fewer columns than the body: "Difficulty" over the labels and the units beside them.
    const fewer = await textEngineMarkdown(path.join(ICDAR_EU, 'eu-021.pdf'), 7);
    expect(tableCheck(fewer, { cell: '238', top_heading: 'Not at all' })).toBe('passed');
    expect(tableCheck(fewer, { cell: '6.0%', top_heading: 'Not much' })).toBe('passed');
  }, 120_000);
  it('finds a table whose rows are spaced far apart, its labels wrapping round the figures centred beside them', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-023.pdf'), 2);
    expect(tableCheck(markdown, { cell: '2000', left: '1999', up: 'Year', right: '2001' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '$52,500', left: '$52,587', up: '2000', top_heading: 'Year' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '0.0624', left: '0.0671', up: '0.4640', top_heading: 'Year' })).toBe('passed');
    expect(tableCheck(markdown, { cell: 'Between-state income inequality (Gini index)', right: '0.0628' })).toBe('passed');
  }, 120_000);
  it('parts a ruled group of rows that blank space and a label at the start of each keep apart', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-032.pdf'), 1);
    expect(tableCheck(markdown, { cell: 'Stationary:', up: 'Source', down: 'Major' })).toBe('passed');
    expect(tableCheck(markdown, { cell: 'Area', up: 'Major', right: 'Emissions of less than 10 tons per year of any one air toxic pollutant, or less than 25 tons per year of any combination of air toxics' })).toBe('passed');
  }, 120_000);
  it('parts ruled rows of figures marked with footnote stars, dashes and (X) into their lines', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-001.pdf'), 1);
    expect(tableCheck(markdown, { cell: '56,672', left: '0.3', up: '303,858', top_heading: '2010' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '*2,912', left: '0.3', up: '*2,385', top_heading: 'Difference' })).toBe('passed');
  }, 120_000);
  it('heads the columns with the row under a title boxed in as the first row of a ruled grid', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-013.pdf'), 2);
    expect(tableCheck(markdown, { cell: 'Alternate level', left: 'Modified level', up: 'Grade level extensions', top_heading: 'Alternate Assessment Based on Alternate Achievement Standards' })).toBe('passed');
  }, 120_000);
  it('parts rows of figures stacked in one ruled slot where a row leaves some columns empty', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_EU, 'eu-008.pdf'), 1);
    expect(tableCheck(markdown, { cell: 'Hungary', up: 'Estonia', right: '8.6', down: 'Latvia' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '0.87', up: '1.9', top_heading: 'ERDF Convergence EURbn' })).toBe('passed');
    expect(tableCheck(markdown, { cell: 'TOTAL', up: 'Technical Assistance', right: '58.99' })).toBe('passed');
  }, 120_000);
  it('parts stacked rows of figures under group labels set apart in one ruled slot', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-008.pdf'), 3);
    expect(tableCheck(markdown, { cell: 'All Randomly Assigned (N=4,667):', up: 'Sample Group', down: '3-Year-Old Cohort' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '17.3%', left: 'Control Group', up: '85.1%', right: '82.7%' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '4-Year-Old Cohort', up: 'Control Group', down: 'Head Start Group' })).toBe('passed');
  }, 120_000);
  it('keeps a table whole across headings set over its figure columns between groups of rows', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-019.pdf'), 4);
    expect(tableCheck(markdown, { cell: '49,825', left: '49,644', up: 'Projected enrollment, in thousands', top_heading: '2008–09' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '49,293', left: 'Actual', top_heading: 'Year of data' })).toBe('passed');
  }, 120_000);
  it('finds a two-column table ruled row by row with rules broken at the column gutter, wrapped cells kept whole', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-011a.pdf'), 2);
    expect(tableCheck(markdown, { cell: 'Budget', left: 'Program', down: '$1.1M' })).toBe('passed');
    expect(tableCheck(markdown, { cell: 'Federal Risk Authorization and Management Program (FedRAMP)', up: 'Performance.gov', top_heading: 'Program', right: '$0.3M' })).toBe('passed');
  }, 120_000);
  it('finds an unruled statement of two columns, labels and a column of figures, under its headings', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-033.pdf'), 2);
    expect(tableCheck(markdown, { cell: 'Proportion', left: 'Age Group', down: '0.2650' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '0.2046', left: '30-39', up: '0.2650', top_heading: 'Proportion' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '0.1781', left: '60-74', up: '0.1618' })).toBe('passed');
    // the paragraph between the two statements stays running text
    expect(markdown).toMatch(/The following proportions based on the 1980 Census data are to/);
  }, 120_000);
  it('heads a table whose first rows are group labels with the header line above them, words never cut at a column boundary', async () => {
    const markdown = await textEngineMarkdown(path.join(ICDAR_US, 'us-024.pdf'), 3);
    expect(tableCheck(markdown, { cell: 'Sex', top_heading: 'Characteristic', down: 'Male' })).toBe('passed');
    expect(tableCheck(markdown, { cell: '(22.9)', left: '14,037', top_heading: '(%)' })).toBe('passed');
    expect(markdown).toContain('<th>Unadjusted odds ratio</th>');
  }, 120_000);
});
