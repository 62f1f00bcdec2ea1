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
# full model) and the FastMTP head (GPU_CHECK_PYTHON, default Debian's /usr/bin/python3 with
# python3-torch), exported in int4 and fp16 by `folio export-model`. With GPU_CHECK_DOC (a PDF of
# several pages) it then converts that document in int4 on the CPU (where pages decode together)
# with 1 and 4 pages in flight, greedy and K = 3, and says whether each page's text is the same. The cuda runs need ONNX Runtime's CUDA libraries (`npm run install:gpu`, which
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
  (cd tools/model && "${GPU_CHECK_PYTHON:-/usr/bin/python3}" random_checkpoint.py --config tests/data/jina-ocr-v1.config.json \
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

# one page converted: PRECISION DEVICE PACKAGE
page_run() {
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
    return
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
}

for run in "int4 webgpu $int4" "int4 cuda $int4" "fp16 cuda $fp16" "fp16 webgpu $fp16"; do
  page_run $run
done

# auto measures every device and chooses (kept in its own data folder), with --spec-k auto
page_run int4 auto "$int4"

doc="${GPU_CHECK_DOC:-}"
if [ -n "$doc" ]; then
  for speck in 0 3; do
    for n in 1 4; do
      echo "== int4 on cpu, $(basename "$doc"), K = $speck, $n pages in flight"
      out="$work/doc-k$speck-n$n"
      FOLIO_USER_DATA_DIR="$work/data" node bin/folio.js convert "$doc" -o "$out" --engine vlm --model "$int4" --device cpu \
        --mode "$mode" --max-tokens "$tokens" --spec-k "$speck" --pages-in-flight "$n" --page-timeout 600 --json > "$out.json" 2> "$out.err" \
        || { echo "failed: $(grep -v '^\s' "$out.err" | head -2 | tr '\n' ' ')"; continue; }
      node -e '
        const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map((l) => JSON.parse(l));
        const sum = lines.find((e) => e.event === "summary");
        const pages = lines.filter((e) => e.event === "page-done").map((e) => e.stats.decode || {});
        const most = Math.max(...pages.map((d) => (d.pagesTogether || {}).most || 1));
        const rows = pages.reduce((s, d) => s + (d.rowsPerPass || 0), 0) / pages.length;
        console.log(`${sum.pagesDone} pages, ${sum.tokens} tokens in ${(sum.pagesMs / 1000).toFixed(1)} s: ` +
          `${(sum.tokens / (sum.pagesMs / 1000)).toFixed(1)} tokens/s, ${(sum.pagesDone / (sum.pagesMs / 1000)).toFixed(2)} pages/s; ` +
          `pages together at most ${most}, rows a pass ${rows.toFixed(2)}`);
      ' "$out.json"
    done
    if cmp -s "$work/doc-k$speck-n1/$(basename "${doc%.pdf}").md" "$work/doc-k$speck-n4/$(basename "${doc%.pdf}").md"; then
      echo "K = $speck: the text with 4 pages in flight is the same as with 1"
    else
      echo "K = $speck: the text with 4 pages in flight DIFFERS from 1 (or a run failed)"
    fi
  done
fi
echo "== outputs in $work"
