import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { fusePpOcrGraph } from './ppocr-graph-fusion.js';
import { ppOcrAssetsDir } from './ppocr-models.js';

const OPTIONS: ort.InferenceSession.SessionOptions = { intraOpNumThreads: 1, graphOptimizationLevel: 'all' };

/** A page-like input: dark strokes on light paper in a repeating pattern, normalised as the engine does. */
function strokes(shape: [number, number, number, number]): Float32Array {
  const [, channels, height, width] = shape;
  const data = new Float32Array(channels * height * width);
  for (let c = 0; c < channels; c++) {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) data[(c * height + y) * width + x] = (x % 11 < 2 || (y % 17 < 3 && x % 37 < 20) ? -1 : 1) * 0.9;
    }
  }
  return data;
}

async function outputs(model: Uint8Array, shape: [number, number, number, number]): Promise<Float32Array> {
  const session = await ort.InferenceSession.create(model, OPTIONS);
  try {
    const result = await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', strokes(shape), shape) });
    return result[session.outputNames[0]!]!.data as Float32Array;
  } finally {
    await session.release();
  }
}

describe('PP-OCR graph fusion', () => {
  for (const [file, shape, affines, hardSwishes] of [
    ['ch_PP-OCRv4_rec_infer.onnx', [1, 3, 48, 320], 40, 28],
    ['ch_PP-OCRv4_det_infer.onnx', [1, 3, 320, 256], 38, 24],
  ] as const) {
    it(`folds ${file}'s affines and hard-swishes and keeps its outputs`, async () => {
      const shipped = new Uint8Array(await readFile(path.join(ppOcrAssetsDir(), file)));
      const fused = fusePpOcrGraph(shipped);
      expect([fused.affinesFolded, fused.hardSwishes]).toEqual([affines, hardSwishes]);
      const [before, after] = [await outputs(shipped, [...shape]), await outputs(fused.model, [...shape])];
      expect(after.length).toBe(before.length);
      let worst = 0;
      for (let i = 0; i < before.length; i++) worst = Math.max(worst, Math.abs(before[i]! - after[i]!));
      expect(worst).toBeLessThan(1e-4);
    }, 60_000);
  }
});
