import { describe, expect, it } from 'vitest';
import { isFooterText, isPageNumber, runningText, toBandLine, type BandCandidate } from './running-text.js';

const page = { height: 800 };

function candidate(text: string, y0: number, band: 'top' | 'bottom' = 'top'): BandCandidate<{ x0: number; y0: number; x1: number; y1: number; text: string }> {
  return { item: { x0: 50, y0, x1: 300, y1: y0 + 10, text }, text, band };
}

describe('running text', () => {
  it('recognises lone page numbers in their usual forms', () => {
    for (const text of ['3', 'Page 3 of 10', '- 3 -', 'iv', 'xii', '7 / 12']) expect(isPageNumber(text), text).toBe(true);
    for (const text of ['Civic', 'Chapter 3', '3 apples']) expect(isPageNumber(text), text).toBe(false);
  });

  it('takes a line that a neighbour repeats, digits aside, at about the same height', () => {
    const neighbour = [toBandLine('Annual Report 2023, chapter 4', { x0: 50, y0: 30, x1: 300, y1: 40 }, 'top')];
    const header = candidate('Annual Report 2023, chapter 5', 31);
    const title = candidate('A title only this page has', 60);
    const moved = candidate('Annual Report 2023, chapter 6', 70);
    const found = runningText([header, title, moved], [neighbour], page.height);
    expect([...found].map((f) => f.text)).toEqual(['Annual Report 2023, chapter 5']);
  });

  it('keeps numbers that share their row with ordinary text, as in a table row at the page foot', () => {
    const row = [candidate('2021', 760, 'bottom'), candidate('Hollin Brook', 760, 'bottom'), candidate('34', 760, 'bottom')];
    expect(runningText(row, [], page.height).size).toBe(0);
    const footer = [candidate('Harbour Board', 770, 'bottom'), candidate('7', 770, 'bottom')];
    const neighbour = [toBandLine('Harbour Board', { x0: 50, y0: 770, x1: 300, y1: 780 }, 'bottom')];
    expect(runningText(footer, [neighbour], page.height).size).toBe(2);
  });

  it('keeps figures of a table row at the page top that a neighbour repeats, digits aside, beside cells that are not repeated', () => {
    const row = (text: string, x0: number) => ({ item: { x0, y0: 60, x1: x0 + 40, y1: 70, text }, text, band: 'top' as const });
    const neighbour = [toBandLine('0.05637', { x0: 200, y0: 61, x1: 240, y1: 71 }, 'top'), toBandLine('1.10', { x0: 100, y0: 61, x1: 140, y1: 71 }, 'top')];
    expect(runningText([row('Run 11', 50), row('12.5', 100), row('103.4', 200)], [neighbour], page.height).size).toBe(0);
    // alone on its row, a repeated figure is still running text (a version number in the header)
    expect([...runningText([row('1.2', 200)], [neighbour], page.height)].map((f) => f.text)).toEqual(['1.2']);
  });

  it('needs the same band: a footer does not match a header', () => {
    const neighbour = [toBandLine('Harbour Board', { x0: 50, y0: 30, x1: 300, y1: 40 }, 'top')];
    expect(runningText([candidate('Harbour Board', 31, 'bottom')], [neighbour], page.height).size).toBe(0);
  });

  it("recognises a foot's dates, revisions and part or form numbers, and not prose that starts like them", () => {
    for (const text of ['Rev. 4.2', 'Revision B, 03/2021', 'Version 2 – March 2021', 'March 3, 2021', '3 March 2021', '2021-03-05', 'Part No. 12345-01', 'P/N 998-12', 'Form 1040', 'Doc. No. AB-123'])
      expect(isFooterText(text), text).toBe(true);
    for (const text of ['Reverse', 'Version control systems', 'Revision 2 of the plan was adopted', 'Formal', 'In March 2021 we met'])
      expect(isFooterText(text), text).toBe(false);
  });

  it("takes a short line under a page number set well apart at the foot, and keeps what lies above it or under a chart's tick", () => {
    const row = (text: string, y0: number) => ({ item: { x0: 200, y0, x1: 400, y1: y0 + 8, text }, text, band: 'bottom' as const });
    const foot = [row('1 A note on the survey of the lower river.', 700), row('3 of 8', 745), row('Harbour Board of Westland', 765)];
    const apart = (gap: number) => (c: BandCandidate<{ x0: number; y0: number; x1: number; y1: number; text: string }>) => ({
      continuesBody: false,
      smallerThanBody: false,
      gapInward: c.text === '3 of 8' ? gap : 1,
    });
    expect([...runningText(foot, [], page.height, apart(4))].map((f) => f.text).sort()).toEqual(['3 of 8', 'Harbour Board of Westland']);
    expect([...runningText(foot, [], page.height, apart(1))].map((f) => f.text)).toEqual(['3 of 8']);
  });

  it('takes the outermost rows of the foot that hold only such matter, and nothing above a line that is not', () => {
    const row = (text: string, x0: number, y0: number) => ({ item: { x0, y0, x1: x0 + 80, y1: y0 + 10, text }, text, band: 'bottom' as const });
    const foot = [row('Rev. 4.2', 50, 770), row('March 3, 2021', 400, 770), row('The pumps were serviced.', 50, 740), row('2021-03-05', 50, 720)];
    expect([...runningText(foot, [], page.height)].map((f) => f.text).sort()).toEqual(['March 3, 2021', 'Rev. 4.2']);
  });

  it("keeps a date that ends a short page's text above the sheet's foot, as a title page's date", () => {
    const date = { item: { x0: 250, y0: 400, x1: 350, y1: 410, text: 'December 11, 2021' }, text: 'December 11, 2021', band: 'bottom' as const };
    expect(runningText([date], [], page.height).size).toBe(0);
  });
});
