/**
 * KaTeX with its terminal hooks taken away. KaTeX defines `\message`, `\errmessage` and `\show` to
 * print with console.log and console.error, and its default strictness warns on the console quoting
 * the formula: a model's math could then write lines of its own on the CLI's stdout (a forged
 * `--json` event) or send escape sequences to the terminal. Importing this module redefines those
 * three to consume their argument and print nothing, for every KaTeX render in the process; every
 * render also passes KATEX_OPTIONS, whose strictness is silent.
 */

import katex from 'katex';

interface MacroContext {
  consumeArgs(count: number): unknown[];
  popToken(): unknown;
}

const internals = katex as unknown as { __defineMacro(name: string, body: (context: MacroContext) => string): void };
for (const name of ['\\message', '\\errmessage']) {
  internals.__defineMacro(name, (context) => {
    context.consumeArgs(1);
    return '';
  });
}
internals.__defineMacro('\\show', (context) => {
  context.popToken();
  return '';
});

/** `trust` off: `\href`, `\url`, `\includegraphics` and `\html…` make no links, images or attributes. */
export const KATEX_OPTIONS = { trust: false, strict: 'ignore' } as const;
