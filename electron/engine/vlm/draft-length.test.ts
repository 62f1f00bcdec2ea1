import { describe, expect, it } from 'vitest';
import { AutoDraftLength, DEFAULT_AUTO_SETTINGS, fillByLine, fixedDraftLength, type DraftLength } from './draft-length.js';

/**
 * Runs `steps` steps of a synthetic device: the i-th draft is right with chance `acceptance[i]` (given
 * the ones before were), and a step with K drafts costs `cost(K)` ms. Returns the K chosen at each step.
 */
function drive(length: DraftLength, steps: number, acceptance: (step: number) => readonly number[], cost: (k: number) => number): number[] {
  let seed = 12345;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const chosen: number[] = [];
  for (let step = 0; step < steps; step++) {
    const k = length.next();
    chosen.push(k);
    const rates = acceptance(step);
    let accepted = 0;
    while (accepted < k && random() < (rates[accepted] ?? 0)) accepted++;
    length.observe({ k, accepted, ms: cost(k) });
  }
  return chosen;
}

const share = (ks: readonly number[], k: number) => ks.filter((value) => value === k).length / ks.length;

describe('auto draft length', () => {
  it('settles on no speculation when drafts are never right', () => {
    const ks = drive(new AutoDraftLength(4), 400, () => [0, 0, 0, 0], (k) => 10 + 3 * k);
    expect(share(ks.slice(100), 0)).toBeGreaterThan(0.95);
  });

  it('probes less and less often while the head stays wrong, and often again once it is right', () => {
    const length = new AutoDraftLength(4);
    const probesIn = (ks: readonly number[]) => ks.filter((k) => k === 4).length;
    const wrong = drive(length, 3000, () => [0, 0, 0, 0], (k) => 10 + 3 * k);
    expect(probesIn(wrong.slice(0, 1000))).toBeGreaterThan(probesIn(wrong.slice(2000)));
    expect(probesIn(wrong.slice(2000))).toBeLessThanOrEqual(1);
    const right = drive(length, 1500, () => [0.95, 0.95, 0.95, 0.95], (k) => 10 + 2 * k);
    expect(share(right.slice(-200), 4)).toBeGreaterThan(0.95);
  });

  it('drafts four when drafts are nearly always right and verifying is cheap', () => {
    const ks = drive(new AutoDraftLength(4), 400, () => [0.95, 0.95, 0.95, 0.95], (k) => 10 + 2 * k);
    expect(share(ks.slice(100), 4)).toBeGreaterThan(0.95);
  });

  it('stops at three when a fourth draft no longer pays for its share of the pass', () => {
    // E(K)/cost(K) with a = 0.8, cost 10 + 3K: 0.100, 0.138, 0.153, 0.155, 0.153
    const length = new AutoDraftLength(4, { probeBudget: 0.05, probeEvery: 8, maxProbeEvery: 8, decay: 0.999 });
    const ks = drive(length, 3000, () => [0.8, 0.8, 0.8, 0.8], (k) => 10 + 3 * k);
    expect(length.estimate().best).toBe(3);
    expect(share(ks.slice(1000), 3)).toBeGreaterThan(0.8);
  });

  it('changes its mind mid-document when the drafts stop being right', () => {
    const ks = drive(new AutoDraftLength(4), 900, (step) => (step < 300 ? [0.95, 0.95, 0.95, 0.95] : [0, 0, 0, 0]), (k) => 10 + 2 * k);
    expect(share(ks.slice(200, 300), 4)).toBeGreaterThan(0.95);
    expect(share(ks.slice(700), 0)).toBeGreaterThan(0.95);
  });

  it('tries again a K whose one measurement came while the machine was busy', () => {
    // E(K)/cost(K) with a = 0.9, 0.9, 0.9, 0.3 and cost 10 + 3K: 0.100, 0.146, 0.169, 0.181, 0.166; but
    // K = 3's first steps cost 100 ms (another job ran)
    let busy = true;
    const length = new AutoDraftLength(4);
    const early = drive(length, 100, () => [0.9, 0.9, 0.9, 0.3], (k) => (k === 3 && busy ? 100 : 10 + 3 * k));
    expect(early).toContain(3);
    busy = false;
    const late = drive(length, 3000, () => [0.9, 0.9, 0.9, 0.3], (k) => 10 + 3 * k);
    expect(share(late.slice(2000), 3)).toBeGreaterThan(0.9);
  });

  it('starts with a plain step, then probes the largest K', () => {
    const ks = drive(new AutoDraftLength(4), 2, () => [0, 0, 0, 0], () => 1);
    expect(ks).toEqual([0, 4]);
  });

  it('keeps probes within 5% of the decoding time where speculation never pays', () => {
    // a CPU: a K-draft step costs 1 + 2K plain steps (verify reads more experts), drafts half right
    const cost = (k: number) => 10 * (1 + 2 * k);
    const steps = (length: AutoDraftLength, n: number) => {
      const ks = drive(length, n, () => [0.5, 0.5, 0.5, 0.5], cost);
      const spent = ks.reduce((sum, k) => sum + cost(k), 0);
      return { ks, overhead: spent / (ks.length * cost(0)) - 1 };
    };
    // measured costs before the page (step-costs.ts), as --device auto and --spec-k auto have them
    const primed = steps(new AutoDraftLength(4, DEFAULT_AUTO_SETTINGS, { stepMs: [10, 30, 50, 70, 90], catchUpMsPerRow: Number.NaN }), 150);
    expect(primed.overhead).toBeLessThanOrEqual(0.05);
    // without them, a short page pays for the first probe's measurement, then keeps within the budget
    const unprimed = new AutoDraftLength(4);
    steps(unprimed, 150);
    expect(unprimed.probeShare).toBeLessThanOrEqual(0.06);
    expect(share(steps(unprimed, 1000).ks, 0)).toBeGreaterThan(0.95);
  });

  it("counts bringing the draft head up to date as part of a probe's cost, a page's prompt first", () => {
    // a CPU: a probe first feeds the head every row it has not seen, 2 ms a row (a tenth of a plain step each)
    const pages = (length: AutoDraftLength, count: number, promptRows: number, tokens: number) => {
      let spent = 0;
      const ks: number[] = [];
      for (let page = 0; page < count; page++) {
        length.beginPage(promptRows);
        let behind = promptRows;
        for (let step = 0; step < tokens; step++) {
          const k = length.next();
          const catchUpMs = k > 0 ? 2 * behind : 0;
          behind = k > 0 ? 0 : behind + 1;
          spent += 10 * (1 + 2 * k) + catchUpMs;
          ks.push(k);
          length.observe({ k, accepted: 0, ms: 10 * (1 + 2 * k), catchUpMs });
        }
      }
      return { overhead: spent / (ks.length * 10) - 1, ks };
    };
    // measured before the pages: the head's catch-up is known, so a short page never pays for its prompt
    const measured = { stepMs: [10, 30, 50, 70, 90], catchUpMsPerRow: 2 };
    const short = pages(new AutoDraftLength(4, DEFAULT_AUTO_SETTINGS, measured), 3, 300, 100);
    expect(short.ks.every((k) => k === 0)).toBe(true);
    // a long document probes, within the budget
    const long = pages(new AutoDraftLength(4, DEFAULT_AUTO_SETTINGS, measured), 3, 300, 2000);
    expect(long.ks.some((k) => k > 0)).toBe(true);
    expect(long.overhead).toBeLessThanOrEqual(0.05);
  });

  it("bounds a prompt's expected feeding by a share of the decoder's prefill of it", () => {
    // a GPU: measured on a few rows, feeding the head looked like 5 ms a row, but the prompt's prefill took 20 ms
    const length = new AutoDraftLength(4, DEFAULT_AUTO_SETTINGS, { stepMs: [10, 11, 12, 13, 14], catchUpMsPerRow: 5 });
    length.beginPage(1000, 20);
    const ks = drive(length, 40, () => [0.9, 0.9, 0.9, 0.9], (k) => 10 + k);
    // 5 s of feeding expected would have kept it plain for 10,000 steps
    expect(ks.slice(0, 20)).toContain(4);
  });

  it('finds that speculation pays on a device where a K-draft step costs little more than a plain one', () => {
    const ks = drive(new AutoDraftLength(4, DEFAULT_AUTO_SETTINGS, { stepMs: [10, 10.5, 11, 11.5, 12], catchUpMsPerRow: Number.NaN }), 60, () => [0.9, 0.9, 0.9, 0.9], (k) => 10 + 0.5 * k);
    expect(share(ks.slice(20), 4)).toBeGreaterThan(0.9);
  });

  it('reads acceptance per position as conditional on the drafts before it', () => {
    const length = new AutoDraftLength(2, { probeBudget: 0.05, probeEvery: 1, maxProbeEvery: 1, decay: 1 });
    // position 1 right 3 times of 4; position 2 judged those 3 times, right once
    for (const accepted of [2, 1, 1, 0]) length.observe({ k: 2, accepted, ms: 1 });
    expect(length.estimate().acceptance).toEqual([3 / 5, 1 / 4]);
  });

  it('a fixed length always drafts its K', () => {
    expect(drive(fixedDraftLength(2), 5, () => [0, 0], () => 1)).toEqual([2, 2, 2, 2, 2]);
  });
});

describe('filling step costs by a line', () => {
  it('fits the K not measured from those that were', () => {
    expect(fillByLine([10, Number.NaN, Number.NaN, Number.NaN, 18])).toEqual([10, 12, 14, 16, 18]);
  });
  it('repeats a single measurement', () => {
    expect(fillByLine([Number.NaN, 7, Number.NaN])).toEqual([7, 7, 7]);
  });
});
