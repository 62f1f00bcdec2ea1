/**
 * What may survive from a document into exported HTML. Everything in a page's Markdown came from
 * an untrusted PDF (or a model reading one), so this starts from GitHub's rules and adds only what
 * tables and math need.
 */

import { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';

const defaultAttributes = defaultSchema.attributes ?? {};
/** GitHub allows these on every element today; tables must not depend on that staying so. `<br>` is already allowed. */
const cellAttributes = ['colSpan', 'rowSpan', 'align'];

export const exportSanitizeSchema: SanitizeSchema = {
  ...defaultSchema,
  attributes: {
    ...defaultAttributes,
    td: [...(defaultAttributes['td'] ?? []), ...cellAttributes],
    th: [...(defaultAttributes['th'] ?? []), ...cellAttributes],
    // remark-math marks formulas with these classes; rehype-katex, which runs after sanitising, finds them.
    code: [['className', /^language-./, 'math-inline', 'math-display']],
  },
  // Dropping these elements is not enough: their text (CSS, script source) would show as prose.
  strip: [...(defaultSchema.strip ?? []), 'style', 'noscript', 'template'],
};
