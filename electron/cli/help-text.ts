/** What `folio --help` prints. */

export const HELP_TEXT = `folio: PDFs and page images (PNG, JPEG, TIFF) to Markdown, HTML and JSON, on this machine.

Usage:
  folio convert <files...> -o <dir> [options]
  folio doctor        say which ONNX Runtime execution provider Folio gets, and why
  folio --help | --version

Convert options:
  -o, --out DIR           output folder (created if missing)
  --pages 1-3,7,10-       pages to convert, 1-based (default: all)
  --format md,html,json   what to write (default: md)
  --split-pages           also write <stem>_pg<N>.md (and .html) per page
  --engine auto|text|vlm  auto (default) picks vlm when --model is given, else text
  --model DIR             model package folder for the vlm engine (written by tools/model)
  --spec-k K|auto         vlm draft tokens per step, 0..4, or auto: measured and picked as it runs
                          (default auto with an MTP head, else 0)
  --mode NAME             vlm resolution mode of the package (default: its first)
  --max-tokens N          vlm tokens per page at most (default 4096)
  --keep-headers          keep running headers, footers and page numbers
  --images                extract images into <stem>_assets/ and link them
  --password P            password of encrypted PDFs
  --page-timeout S        time limit per page and for opening a file, in seconds (default 60;
                          with the vlm engine 60 + 0.2 per --max-tokens token: 879 for 4096)
  --json                  one JSON event per line on stdout instead of progress

Output goes to <dir>/<stem>.md (.html, .json); inputs with the same name get <stem>-2, -3...
Exit status: 0 all converted, 1 some file or page failed (one line each on stderr), 2 usage error,
130 interrupted (Ctrl-C: nothing half-done is written).
`;
