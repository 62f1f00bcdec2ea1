#!/usr/bin/env bash
# A prepared check for a machine with an NVIDIA GPU and no network: converts one page with a
# real-width model package on the webgpu and cuda providers, int4 and fp16, and prints per run the
# provider, ms per decode step, tokens/s, the bytes that crossed between host and device per step,
# whether the KV cache stayed on the device, and the GPU memory at its peak.
#
#   bash tools/gpu-check.sh [INT4_PACKAGE FP16_PACKAGE]
#
# Needs `npm ci` and `npm run build` done. Without packages it makes them: a random checkpoint at
# the real width with GPU_CHECK_LAYERS decoder layers (default 4, to stay within minutes; 12 is the
# full model) and the FastMTP head (Debian's python3-torch), exported in int4 and fp16 by
# `folio export-model`. The cuda runs need ONNX Runtime's CUDA libraries (`npm run install:gpu`, which
# downloads them); where they are missing the run says so and the others go on.
set -uo pipefail

cd "$(dirname "$0")/.."
work="${GPU_CHECK_DIR:-$(mktemp -d)}"
mkdir -p "$work"
layers="${GPU_CHECK_LAYERS:-4}"
tokens="${GPU_CHECK_TOKENS:-64}"
mode="${GPU_CHECK_MODE:-base}"
page="test/bench-set/sources/tex/latex-mechanics.pdf"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
chmod 700 "$XDG_RUNTIME_DIR"

echo "== GPU"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo "nvidia-smi not found: no NVIDIA driver here"

if [ $# -ge 2 ]; then
  int4="$1"
  fp16="$2"
else
  echo "== making a real-width random package with $layers decoder layers in $work"
  (cd tools/model && /usr/bin/python3 random_checkpoint.py --config tests/data/jina-ocr-v1.config.json \
    --layers "$layers" --mtp --out "$work/checkpoint") >/dev/null || exit 1
  for precision in int4 fp16; do
    /usr/bin/time -f "export $precision: %e s, peak %M KB" node bin/folio.js export-model "$work/checkpoint" \
      -o "$work/$precision" --precision "$precision" --modes base 2>&1 >/dev/null | grep '^export $precision:' || exit 1
  done
  int4="$work/int4"
  fp16="$work/fp16"
fi

peak_gpu_mib() {
  # the largest memory.used seen while the run was going, sampled every 200 ms
  sort -n "$1" | tail -1
}

# the last run lets auto measure every device and choose (kept in its own data folder), with --spec-k auto
for run in "int4 webgpu $int4" "int4 cuda $int4" "fp16 cuda $fp16" "fp16 webgpu $fp16" "int4 auto $int4"; do
  set -- $run
  echo "== $1 on $2"
  samples="$work/gpu-$1-$2.txt"
  : > "$samples"
  (while true; do nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null | head -1 >> "$samples"; sleep 0.2; done) &
  sampler=$!
  speck=0
  [ "$2" = auto ] && speck=auto
  FOLIO_USER_DATA_DIR="$work/data" node bin/folio.js convert "$page" -o "$work/out-$1-$2" --engine vlm --model "$3" --device "$2" \
    --mode "$mode" --max-tokens "$tokens" --spec-k "$speck" --page-timeout 600 --json > "$work/run-$1-$2.json" 2> "$work/run-$1-$2.err"
  code=$?
  kill "$sampler" 2>/dev/null
  if [ $code -ne 0 ]; then
    echo "failed (exit $code): $(grep -v '^\s' "$work/run-$1-$2.err" | head -2 | tr '\n' ' ')"
    continue
  fi
  node -e '
    const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const done = lines.find((e) => e.event === "page-done");
    const d = (done && done.stats && done.stats.decode) || {};
    const msPerStep = d.steps ? d.decodeMs / d.steps : NaN;
    console.log(`provider ${d.provider}, precision ${d.precision}, cache on device ${d.cacheResident}, ` +
      `${msPerStep.toFixed(1)} ms a step, ${Number(d.tokensPerSecond).toFixed(1)} tokens/s, ` +
      `${Math.round(d.hostBytesPerStep)} host bytes a step, prefill ${Math.round(d.prefillMs)} ms, ` +
      `peak GPU memory ${process.argv[2] || "?"} MiB` + (d.specKSetting === "auto" ? `\nK by steps ${JSON.stringify(d.stepsAtK)}; ${done.stats.reason}` : ""));
  ' "$work/run-$1-$2.json" "$(peak_gpu_mib "$samples")"
done
echo "== outputs in $work"
