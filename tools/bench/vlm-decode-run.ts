/**
 * Part one of `npm run bench:vlm`: the same pages decoded plain greedy, with FastMTP at K = 1..4 and
 * under `auto`, in one run, each page's runs back to back so that a loaded machine slows them alike.
 */

import { prefill, type DecodeLimits, type DecodeResult } from '../../electron/engine/vlm/decoding.js';
import { AutoDraftLength, DEFAULT_AUTO_SETTINGS, type DraftLength } from '../../electron/engine/vlm/draft-length.js';
import { decodeGreedy } from '../../electron/engine/vlm/greedy.js';
import type { ModelPackage } from '../../electron/engine/vlm/model-package.js';
import type { ModelRunner } from '../../electron/engine/vlm/model-runner.js';
import type { PageInput } from '../../electron/engine/vlm/page-input.js';
import { DEFAULT_REPETITION_RULE } from '../../electron/engine/vlm/repetition.js';
import { decodeSpeculative } from '../../electron/engine/vlm/speculative.js';
import { MAX_SPEC_K } from '../../shared/conversion-defaults.js';
import { measureStepCosts } from '../../electron/engine/vlm/step-costs.js';

export type RunName = 'greedy' | `K=${number}` | 'auto';

export interface RunTotals {
  name: RunName;
  tokens: number;
  steps: number;
  decodeMs: number;
  /** Of `decodeMs`, the time inside `session.run`. */
  runMs: number;
  drafted: number[];
  accepted: number[];
  stepsAtK: number[];
  /** Pages whose tokens differ from greedy decoding's. */
  pagesDiffering: number;
}

function emptyTotals(name: RunName): RunTotals {
  return { name, tokens: 0, steps: 0, decodeMs: 0, runMs: 0, drafted: [], accepted: [], stepsAtK: [], pagesDiffering: 0 };
}

function addCounts(into: number[], from: readonly number[]): void {
  from.forEach((count, i) => (into[i] = (into[i] ?? 0) + count));
}

/**
 * Decodes every page with every run, `rounds` times over, and keeps each page's fastest round per
 * run: on a shared machine the slow rounds measure the neighbours. Each round gives `auto` a fresh
 * controller that learns over that round's pages, as the engine does over a document, so every
 * round of `auto` pays for its probes alike. `auto` starts, as in the engine, from the step costs
 * measured when the package opened (`priorMs`, from step-costs.ts).
 */
export async function decodeRuns(runner: ModelRunner, pkg: ModelPackage, pages: readonly PageInput[], maxNewTokens: number, rounds: number): Promise<{ totals: RunTotals[]; priorMs: number[]; calibrationMs: number; probeShares: number[] }> {
  const { manifest } = pkg;
  const limits: DecodeLimits = {
    eos: manifest.tokens.eos,
    maxNewTokens,
    rule: manifest.decoding.no_repeat_ngram,
    repetition: { ...DEFAULT_REPETITION_RULE, ignored: Object.values(manifest.tokens.special) },
  };
  const speculativeKs = runner.hasMtp ? Array.from({ length: MAX_SPEC_K }, (_, i) => i + 1) : [];
  const calibration = runner.hasMtp ? await measureStepCosts(pkg) : { stepMs: [], catchUpMsPerRow: Number.NaN, totalMs: 0 };
  const newAuto = () => new AutoDraftLength(MAX_SPEC_K, DEFAULT_AUTO_SETTINGS, calibration);
  let auto = newAuto();
  const runs: { name: RunName; length: () => DraftLength | number | null }[] = [
    { name: 'greedy', length: () => null },
    ...speculativeKs.map((k) => ({ name: `K=${k}` as RunName, length: () => k })),
    ...(runner.hasMtp ? [{ name: 'auto' as RunName, length: () => auto }] : []),
  ];
  const decode = async (page: PageInput, length: DraftLength | number | null): Promise<DecodeResult> => {
    const start = await prefill(runner, page.embeds, page.ids.length + maxNewTokens + MAX_SPEC_K + 1);
    if (typeof length === 'object' && length !== null) length.beginPage?.(page.ids.length, start.ms);
    return length === null ? decodeGreedy(runner, start, limits) : decodeSpeculative(runner, start, null, length, limits, page.ids);
  };
  // warm-up: first runs pay for lazy allocations in ONNX Runtime
  if (pages[0]) await decode(pages[0], runner.hasMtp ? 1 : null);
  const fastest: (DecodeResult | null)[][] = pages.map(() => runs.map(() => null));
  const probeShares: number[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round > 0) probeShares.push(auto.probeShare);
    auto = newAuto();
    for (const [p, page] of pages.entries()) {
      const row = fastest[p] as (DecodeResult | null)[];
      for (const [i, run] of runs.entries()) {
        const result = await decode(page, run.length());
        if (result.decodeMs < (row[i]?.decodeMs ?? Number.POSITIVE_INFINITY)) row[i] = result;
      }
    }
  }
  if (runner.hasMtp) probeShares.push(auto.probeShare);
  return { totals: sumRuns(runs.map((run) => run.name), fastest), priorMs: calibration.stepMs, calibrationMs: calibration.totalMs, probeShares };
}

/** Totals per run over the pages; the first run (greedy) is the reference every other run's tokens must equal. */
function sumRuns(names: readonly RunName[], byPage: readonly (readonly (DecodeResult | null)[])[]): RunTotals[] {
  const totals = names.map(emptyTotals);
  for (const row of byPage) {
    const greedyTokens = row[0]?.tokens.join(',');
    for (const [i, result] of row.entries()) {
      const total = totals[i];
      if (!result || !total) continue;
      if (i > 0 && result.tokens.join(',') !== greedyTokens) total.pagesDiffering++;
      total.tokens += result.tokens.length;
      total.steps += result.steps;
      total.decodeMs += result.decodeMs;
      total.runMs += result.runMs;
      addCounts(total.drafted, result.drafted);
      addCounts(total.accepted, result.accepted);
      addCounts(total.stepsAtK, result.stepsAtK);
    }
  }
  return totals;
}
