/** The stylesheet every exported HTML file carries, so it reads well with no network. */
export const EXPORT_STYLESHEET = `
:root { color-scheme: light dark; }
body {
  margin: 0 auto;
  max-width: 48rem;
  padding: 2rem 1.25rem 4rem;
  font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
  overflow-wrap: break-word;
}
h1, h2, h3, h4, h5, h6 { line-height: 1.25; margin: 1.6em 0 0.6em; }
p, ul, ol, table, pre, blockquote { margin: 0 0 1em; }
a { color: #0b62c4; }
.remote-image, .remote-link { color: inherit; }
.remote-image { font-style: italic; opacity: 0.8; }
img { max-width: 100%; height: auto; }
blockquote { margin-left: 0; padding-left: 1em; border-left: 3px solid #8884; color: inherit; }
code, pre { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
code { padding: 0.1em 0.3em; border-radius: 3px; background: #8882; }
pre { padding: 0.8em 1em; overflow-x: auto; border-radius: 4px; background: #8882; }
pre code { padding: 0; background: none; }
table { border-collapse: collapse; display: block; max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid #8888; padding: 0.35em 0.6em; vertical-align: top; text-align: left; }
th { background: #8882; font-weight: 600; }
hr { border: 0; border-top: 1px solid #8886; margin: 2em 0; }
.katex-display { overflow-x: auto; overflow-y: hidden; padding: 0.2em 0; }
.katex-error { text-decoration: underline wavy; cursor: help; }
`;
