import { describe, expect, it } from 'vitest';
import { decoderGraph } from './package-files.js';

describe('the decoder graph a provider runs', () => {
  const both = ['embedding', 'decoder', 'decoder_capacity', 'mtp'];

  it('is the capacity layout on the CPU and the rows layout on WebGPU and CUDA', () => {
    expect(decoderGraph(both, 'cpu')).toBe('decoder_capacity');
    expect(decoderGraph(both, 'webgpu')).toBe('decoder');
    expect(decoderGraph(both, 'cuda')).toBe('decoder');
  });

  it('is `decoder` in a package with one layout', () => {
    expect(decoderGraph(['embedding', 'decoder'], 'cpu')).toBe('decoder');
  });
});
