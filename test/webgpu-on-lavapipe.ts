/** WebGPU for the tests, on Mesa's lavapipe where no GPU is present. */

import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { webgpuProblem } from '../electron/engine/onnx/execution-provider.js';

/**
 * Why the WebGPU provider cannot run here, or null when it can. Mesa's Vulkan loader needs a
 * runtime directory; CI sets one, a bare shell may not, so one is made first.
 */
export function webgpuTestProblem(): Promise<string | null> {
  if (!process.env.XDG_RUNTIME_DIR) {
    const dir = path.join(tmpdir(), `folio-xdg-${process.getuid?.() ?? 0}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    process.env.XDG_RUNTIME_DIR = dir;
  }
  return webgpuProblem();
}
