/** What `folio --help` prints. */

import { DEMO_MODEL_NAMES } from '../../shared/demo-models.js';

export const HELP_TEXT = `folio: PDFs and page images (PNG, JPEG, TIFF) to Markdown, HTML and JSON, on this machine.

Usage:
  folio convert <files...> -o <dir> [options]
  folio bench <dir> [--engine E] [--json] [-o DIR] [engine options]
                      run an engine over an olmOCR-Bench-format folder (*.jsonl tests, pdfs/),
                      score it by olmOCR-Bench's rules and print pass rates by test file and
                      type, and each failure; -o writes each page's Markdown as
                      <pdf>_pg<N>_repeat1.md for olmOCR's own scorer
  folio bench <dir> --outputs MDDIR [--json]
                      score Markdown another converter wrote, without converting:
                      <pdf stem>_pg<N>_repeat<R>.md (olmOCR's layout) or <pdf stem>_pg<N>.md
  folio export-pairs -o <dir> [documents...] [options]
                      fine-tuning pairs of the pages you reviewed or edited in the app
  folio model get REPO[@REVISION] | DIR [--precision int4|fp16|fp32]
                      install a model from Hugging Face (jinaai/jina-ocr-v1, deepseek-ai/DeepSeek-OCR)
                      or a checkpoint folder into the app-data folder's models/: resumes what an
                      earlier get began, prints the package folder last; then --model REPO uses it
  folio model list [--json] | remove REPO[:PRECISION]
                      the installed models (id, precision, revision, size, devices, licence, folder)
  folio export-model <checkpoint> -o <dir> [--precision int4|fp16|fp32] [options]
                      make a model package for --model from a Hugging Face checkpoint folder
                      of DeepSeek-OCR or jina-ocr-v1 (config.json, *.safetensors, tokenizer.json)
  folio doctor        say which devices ONNX Runtime answers on, and what auto measured on them
  folio serve-check URL [--model NAME] [--timeout S]
                      does a vLLM/OpenAI-compatible server answer, which models it serves,
                      and its round-trip time for one small page
  folio --help | --version

Convert options:
  -o, --out DIR           output folder (created if missing)
  --pages 1-3,7,10-       pages to convert, 1-based (default: all); a shorter
                          file converts the pages it has, with a warning
  --format md,html,json,docx,tex
                          what to write (default: md); docx: Word with real tables and
                          equations; tex: a LaTeX document pdflatex compiles
  --split-pages           also write <stem>_pg<N>.md (and .html) per page
  --engine auto|text|vlm|remote|lite
                          auto (default) picks remote with --server, vlm with --model, else per
                          page: text when the page's text layer is real, lite (CPU OCR) when it
                          is a scan, an image, a poor invisible OCR layer or unmapped glyphs
  --lang auto|en|zh|fr    language lite reads: auto, en, zh (PP-OCRv4, English and Chinese;
                          default auto) or fr (Tesseract with the fra pack)
  --model DIR|REPO|NAME   model package folder for the vlm engine, a model installed by "folio model
                          get" by its repo id (owner/name, or owner/name:fp16 for one precision of
                          several), or a demo model by name: ${DEMO_MODEL_NAMES.join(', ')}
                          (trained on synthetic pages only: it will not read real documents well);
                          with --server: the model name the server serves
  --spec-k K|auto         vlm draft tokens per step, 0..4, or auto: measured and picked as it runs
                          (default auto with an MTP head, else 0)
  --device D              vlm device: auto (default: a few decoding steps on each device present,
                          WebGPU, CUDA, CPU, the fastest kept per package in the app-data folder),
                          cpu, webgpu, cuda or cuda:N
  --pages-in-flight N|auto
                          vlm pages decoding together in the same decoder passes, 1..16 (default 1),
                          or auto: packed passes of 1, 2, 4 and 8 pages timed once per package and
                          device (kept like --device auto's), the most pages that still pay, within
                          free memory and the document's pages; on the CPU, with a package whose
                          decoder takes its cache at capacity (the default export); elsewhere pages
                          decode one at a time
  --mode NAME             vlm resolution mode of the package (default: its first)
  --max-tokens N          vlm or remote tokens per page at most (default 4096)
  --server URL            remote engine: a vLLM (OpenAI-compatible) server, e.g. http://gpu-box:8000;
                          its API key, if it wants one, is read from FOLIO_API_KEY
  --concurrency N         remote pages in flight at once (default 16)
  --timeout S             remote time limit per request, in seconds (default 180)
  --retries N             remote retries after a 429, 5xx or dropped connection (default 3)
  --image-size PX         remote page image's longer side in pixels (default 1920)
  --image-format png|jpeg remote page image encoding (default png)
  --prompt TEXT           remote instruction sent with each page (default: the model's own)
  --extra-body JSON       remote request fields replacing the model's sampling extras (see README)
  --keep-headers          keep running headers, footers and page numbers
  --images                extract images into <stem>_assets/ and link them
                          (without it, each image is a note in the text:
                          "(image on page 5, not exported: Chart)")
  --password P            password of encrypted PDFs
  --page-timeout S        time limit per page and for opening a file, in seconds (default 60
                          with --engine text, 180 with auto or lite, which may OCR a page;
                          with the vlm engine 60 + 0.2 per --max-tokens token: 879 for 4096,
                          counted once the model is open; opening it has its own limit)
  --json                  one JSON event per line on stdout instead of progress

Export-pairs options:
  Reads the desktop app's workspace (it is not changed) and writes, for every page you edited or
  ticked "Reviewed", the page image and its final Markdown: <dir>/train.jsonl and validation.jsonl
  (one chat per line in the model's format, image paths relative to <dir>), <dir>/images/, and
  <dir>/manifest.json (per pair: document, page, engine, model, whether the text was edited).
  Pages never looked at are left out. Documents are named by id, file path or file name (default: all).
  -o, --out DIR           the pairs folder (created if missing)
  --workspace DIR         the app's data folder (default: FOLIO_USER_DATA_DIR, else the OS's
                          application-data folder: ~/.config/Folio on Linux, ~/Library/Application
                          Support/Folio on macOS, %APPDATA%\Folio on Windows)
  --model DIR|NAME        take the chat format and image size from this model package
  --format deepseek-ocr|jina-ocr-v1
                          deepseek-ocr (default): its <|User|>/<|Assistant|> conversation with the
                          plain prompt; jina-ocr-v1: chat-template messages with its instruction
  --size PX               page images' longer side (default: the package's base view, else 1024)
  --split F               share of documents in validation, chosen by a hash of each document's
                          id so a document is never split and stays on its side (default 0.1)
  --password P            password of encrypted PDFs
  --overwrite             replace an earlier export's files
  --page-timeout S        time limit per page image, in seconds (default 60)

Model get options:
  HF_ENDPOINT, HF_TOKEN (else the token file "hf auth login" writes under HF_HOME) and the shared
  Hugging Face cache (HF_HUB_CACHE, default $HF_HOME/hub, HF_HOME default ~/.cache/huggingface) are
  honoured as huggingface_hub does: a checkpoint it already fetched is not fetched again.
  --precision P           int4 (default: CPUs, WebGPU, small GPUs), fp16 (CUDA) or fp32 (the reference)

Export-model options:
  Reads the checkpoint one tensor at a time (about 0.3 GB of memory whatever its size) and writes
  the package: ONNX graphs, tokenizer.json and manifest.json. Progress goes to stderr; the last line
  on stdout is the package folder. Every config.json field is honoured or refused by name.
  -o, --out DIR           the package folder (created if missing)
  --precision P           int4 (default: 4-bit weights, for CPUs, WebGPU and small GPUs), fp16 (CUDA)
                          or fp32 (the CPU reference)
  --modes LIST            views to write a vision graph for: tiny, small, base, large, gundam
                          (default gundam)
  --max-crops N           most Gundam tiles, 2..9 (default: 9 with a chat template, jina-ocr-v1's
                          ports; else 6, DeepSeek-OCR's)
  --decoding R            no-repeat rule: deepseek-ocr (30 tokens in 90) or jina-ocr-v1 (35 in 1024);
                          default: jina-ocr-v1's with a chat template, else deepseek-ocr's
  --licence L             the weights' licence (default: the model card's license: field)
  --name N                the package's name (default: the checkpoint folder's name)
  --without-draft-head    leave out the checkpoint's FastMTP head (mtp_module.*)
  --allow-unknown-config  export although config.json has fields Folio does not know (named in
                          warnings); fields it knows but does not implement are still refused
  --cache-layout both|rows|capacity
                          the decoder's cache layouts (default both: rows for WebGPU and CUDA,
                          capacity for the CPU, one weights file)
  --block-size N          int4: 4-bit block of the matrices (16, 32, 64, 128; default 32)
  --expert-bits 4|8       int4: bits of the routed experts (default 4 in MLAS's blocks where
                          the widths allow, else 8)
  --expert-block-size N   int4: the experts' block (0, 16, 32, 64, 128; 0: one scale a column)

Output goes to <dir>/<stem>.md (.html, .json); inputs with the same name get <stem>-2, -3...
Exit status: 0 all converted, 1 some file or page failed (one line each on stderr), 2 usage error,
130 interrupted (Ctrl-C: nothing half-done is written).
`;
