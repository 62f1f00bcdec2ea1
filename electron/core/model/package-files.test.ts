import { describe, expect, it } from 'vitest';
import { decoderGraph } from './package-files.js';

describe('the decoder graph a provider runs', () => {
  const both = ['embedding', 'decoder', 'decoder_capacity', 'mtp'];

  it('is the capacity layout on the CPU and the rows layout on WebGPU and CUDA', () => {
    expect(decoderGraph(both, 'cpu', false)).toBe('decoder_capacity');
    expect(decoderGraph(both, 'webgpu', false)).toBe('decoder');
    expect(decoderGraph(both, 'cuda', false)).toBe('decoder');
  });

  it('is `decoder` in a package with one layout, and the contrib-MoE graph when asked for and there', () => {
    expect(decoderGraph(['embedding', 'decoder'], 'cpu', false)).toBe('decoder');
    expect(decoderGraph(['embedding', 'decoder', 'decoder_contrib_moe'], 'cpu', true)).toBe('decoder_contrib_moe');
    expect(decoderGraph(both, 'cpu', true)).toBe('decoder_capacity');
  });
});
