import { describe, expect, it } from 'vitest';
import { dollarMath } from './math-delimiters.js';

describe('dollarMath', () => {
  it('turns inline and display math into dollars', () => {
    expect(dollarMath('Energy \\( E = mc^2 \\) is conserved.')).toBe('Energy $E = mc^2$ is conserved.');
    expect(dollarMath('Before\n\n\\[\n\\int_0^1 x\\,dx = \\frac{1}{2}\n\\]\n\nAfter')).toBe('Before\n\n$$\n\\int_0^1 x\\,dx = \\frac{1}{2}\n$$\n\nAfter');
    expect(dollarMath('\\[ a^2 + b^2 = c^2 \\]')).toBe('$$\na^2 + b^2 = c^2\n$$');
    expect(dollarMath('so \\[x\\] inline')).toBe('so $$x$$ inline');
  });

  it('leaves code spans, fenced code and escaped backslashes as written', () => {
    const code = 'Use `\\(x\\)` here.\n\n```latex\n\\[ y \\]\n```\n\nand \\(z\\)';
    expect(dollarMath(code)).toBe('Use `\\(x\\)` here.\n\n```latex\n\\[ y \\]\n```\n\nand $z$');
    expect(dollarMath('a path C:\\\\(temp) stays')).toBe('a path C:\\\\(temp) stays');
  });

  it('never joins math across a blank line, and keeps text without math untouched', () => {
    const open = 'an unclosed \\( here\n\nand a \\) there';
    expect(dollarMath(open)).toBe(open);
    const plain = '# Title\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n';
    expect(dollarMath(plain)).toBe(plain);
  });

  it('makes a $$ formula alone on its line a display block, and leaves $$ inside a line inline', () => {
    expect(dollarMath('Text.\n\n$$6 = \\frac{\\lambda}{c^3}$$\n\nMore.')).toBe('Text.\n\n$$\n6 = \\frac{\\lambda}{c^3}\n$$\n\nMore.');
    expect(dollarMath('  $$ x^2 $$  ')).toBe('$$\nx^2\n$$');
    expect(dollarMath('so $$x$$ inline, and $$a$$ with $$b$$')).toBe('so $$x$$ inline, and $$a$$ with $$b$$');
    expect(dollarMath('$$x$$ and $$y$$')).toBe('$$x$$ and $$y$$');
    expect(dollarMath('`$$x$$`\n\n    $$code$$\n\n```\n$$fenced$$\n```')).toBe('`$$x$$`\n\n    $$code$$\n\n```\n$$fenced$$\n```');
    expect(dollarMath('$$\nx\n$$')).toBe('$$\nx\n$$');
  });
});
