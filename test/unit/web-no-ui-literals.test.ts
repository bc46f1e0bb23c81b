/**
 * Every interface string lives in the catalogues (web/src/i18n): a component that writes words
 * itself — JSX text with letters or CJK, or a string literal in a user-visible attribute (label,
 * placeholder, title, aria-label, alt, description, …) — fails this test with its file and line.
 * Parsed with the TypeScript compiler API over web/src/**\/*.{ts,tsx}, outside web/src/i18n: a `.ts`
 * helper that builds a notification or a `data` item is held to the same rule as a component.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const WEB_SRC = path.resolve(import.meta.dirname, '../../web/src');

/** Attributes whose value the user reads (or a screen reader says). */
const VISIBLE_ATTRIBUTES = new Set([
  'label',
  'placeholder',
  'title',
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'aria-roledescription',
  'alt',
  'description',
  'error',
  'message',
  'nothingFoundMessage',
  'emptyMessage',
  'tooltip',
  'confirmLabel',
  'cancelLabel',
  'children',
  // Mantine inputs and widgets: text drawn inside or beside the control
  'prefix',
  'suffix',
  'leftSection',
  'rightSection',
  'onLabel',
  'offLabel',
  'showLabel',
  'hideLabel',
  'closeButtonLabel',
]);

/** Object properties that become visible text (Mantine `data` items, notifications, modals). */
const VISIBLE_PROPERTIES = new Set(['label', 'placeholder', 'title', 'aria-label', 'alt', 'description', 'message', 'confirm', 'cancel', 'prefix', 'suffix']);

/**
 * Text that is not language, allowed in components: the brand name (the same in every language) and
 * symbols. Each entry says why.
 */
const ALLOWED = new Set([
  'kikoplay', // the product's name, written the same in every language
  '.lrc', // a file name's extension (the AI lyric's title is its audio's name with it)
]);

/** Letters of any script (Latin, CJK, kana…). */
const WORDS = /\p{L}/u;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return full === path.join(WEB_SRC, 'i18n') ? [] : sourceFiles(full);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The UI literals of one file: `file:line: text`. */
export function uiLiterals(file: string, source = readFileSync(file, 'utf8')): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const clean = text.trim();
    if (!WORDS.test(clean) || ALLOWED.has(clean)) return;
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    found.push(`${path.relative(WEB_SRC, file)}:${line + 1}: ${clean}`);
  };
  const literalText = (e: ts.Node | undefined): string | undefined => {
    if (!e) return undefined;
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
    if (ts.isTemplateExpression(e)) return [e.head.text, ...e.templateSpans.map((s) => s.literal.text)].join(' ');
    if (ts.isParenthesizedExpression(e)) return literalText(e.expression);
    return undefined;
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) report(node, node.text);
    else if (ts.isJsxExpression(node) && node.parent && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      // {'text'} or {`text`} as a child
      const text = literalText(node.expression);
      if (text !== undefined) report(node, text);
      // a conditional's branches: {busy ? 'a' : 'b'}
      if (node.expression && ts.isConditionalExpression(node.expression)) {
        for (const branch of [node.expression.whenTrue, node.expression.whenFalse]) {
          const b = literalText(branch);
          if (b !== undefined) report(branch, b);
        }
      }
    } else if (ts.isPropertyAssignment(node) && VISIBLE_PROPERTIES.has(node.name.getText(sf).replace(/['"]/g, ''))) {
      // { label: '…' } handed to a component or a notification
      const text = literalText(node.initializer);
      if (text !== undefined) report(node.initializer, text);
    } else if (ts.isJsxAttribute(node)) {
      const name = node.name.getText(sf);
      if (VISIBLE_ATTRIBUTES.has(name) && node.initializer) {
        const init = node.initializer;
        const text = ts.isStringLiteral(init) ? init.text : ts.isJsxExpression(init) ? literalText(init.expression) : undefined;
        if (text !== undefined) report(init, text);
        if (ts.isJsxExpression(init) && init.expression && ts.isConditionalExpression(init.expression)) {
          for (const branch of [init.expression.whenTrue, init.expression.whenFalse]) {
            const b = literalText(branch);
            if (b !== undefined) report(branch, b);
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('no UI literals in components', () => {
  it('finds JSX text and visible attributes with words (the check itself can fail)', () => {
    const sample = [
      'const A = () => <div title="Hello">',
      '  Play now',
      "  <Button aria-label={'暂停'} label={`共 ${n} 首`} placeholder={x ? 'yes' : t.no}>{'再生'}</Button>",
      '  <span data-testid="release" className="x">{t.ok} · 1:00 kikoplay</span>',
      '</div>;',
      "notifications.show({ message: 'Saved', id: 'save-notice' });",
      'const B = () => <NumberInput suffix=" 分钟" prefix={`≈ ${n}`} rightSection="kikoplay" />;',
    ].join('\n');
    const hits = uiLiterals(path.join(WEB_SRC, 'sample.tsx'), sample).map((h) => h.replace(/^sample\.tsx:\d+: /, ''));
    expect(hits).toEqual(['Hello', 'Play now', '暂停', '共   首', 'yes', '再生', '· 1:00 kikoplay', 'Saved', '分钟']);
  });

  it('web/src components take every word from the catalogues', () => {
    const files = sourceFiles(WEB_SRC);
    expect(files.filter((f) => f.endsWith('.tsx')).length).toBeGreaterThan(50);
    expect(files.filter((f) => f.endsWith('.ts')).length).toBeGreaterThan(50);
    expect(files.flatMap((f) => uiLiterals(f))).toEqual([]);
  });
});
