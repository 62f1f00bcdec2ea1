/** A page that holds what the Word and LaTeX exports must carry: a table with spans, math, emphasis, a list, a footnote. */
export const SAMPLE_PAGES = [
  {
    page: 1,
    markdown: `# Quarterly report

Sales *rose* by **12%** in [the north](https://example.org/north)[^src], as $E = mc^2$ predicts.

- first point
- second point with \`code\`

1. step one
2. step two

<table>
<tr><th colspan="2">Region</th><th>Total</th></tr>
<tr><td rowspan="2">North</td><td>Q1</td><td>10</td></tr>
<tr><td>Q2</td><td>12</td></tr>
</table>

[^src]: Figures from the regional office.
`,
  },
  {
    page: 2,
    markdown: `## Model

$$
\\sum_{i=1}^{n} \\frac{x_i^2}{\\sqrt{n}} = \\left( \\int_0^1 f(t)\\,dt \\right)
$$

Costs \\$5 & more; 50% of #3 use ~ and _ and {braces} \\\\ and <script>alert(1)</script> stays text.
`,
  },
];
