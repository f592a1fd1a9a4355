/**
 * Where a problem sits in its file: the line and column of the key it names, read from
 * the JSON source itself (jsonc-parser's syntax tree keeps every node's offset), so a CI
 * annotation lands on the line that caused it. A key written nowhere in the file as it
 * stands (one made by a definition's prefix, say) points at the file, not at a guess.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findNodeAtLocation, parseTree, type Node, type ParseError } from 'jsonc-parser';

export interface SourcePosition {
  /** 1-based, as editors and CI systems count */
  line: number;
  column: number;
}

interface ParsedSource {
  text: string;
  root: Node | undefined;
  /** the first syntax error, for files that do not parse */
  error: number | undefined;
}

function positionAt(text: string, offset: number): SourcePosition {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** The first node, in document order, for which `match` holds. */
function findNode(node: Node | undefined, match: (candidate: Node) => boolean): Node | undefined {
  if (!node) return undefined;
  if (match(node)) return node;
  for (const child of node.children ?? []) {
    const found = findNode(child, match);
    if (found) return found;
  }
  return undefined;
}

export class SourceLocator {
  private readonly parsed = new Map<string, ParsedSource | null>();

  constructor(private readonly dir: string) {}

  private read(file: string): ParsedSource | null {
    if (!this.parsed.has(file)) {
      try {
        const text = readFileSync(join(this.dir, file), 'utf8');
        const errors: ParseError[] = [];
        const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
        this.parsed.set(file, { text, root, error: errors[0]?.offset });
      } catch {
        this.parsed.set(file, null);
      }
    }
    return this.parsed.get(file)!;
  }

  /**
   * The node at `path` when one is given (a property's value is placed on its name), else
   * the key written as a property name, else as a string value (a condition, a tab's key
   * list); a file that does not parse points at its first syntax error.
   */
  locate(file: string, key: string, path?: (string | number)[]): SourcePosition | undefined {
    const source = this.read(file);
    if (!source) return undefined;
    if (source.error !== undefined) return positionAt(source.text, source.error);
    if (path && source.root) {
      const node = findNodeAtLocation(source.root, path);
      if (node) return positionAt(source.text, node.parent?.type === 'property' ? node.parent.offset : node.offset);
    }
    if (!key) return undefined;
    const asName = findNode(source.root, (node) => node.type === 'property' && node.children?.[0]?.value === key);
    const node = asName?.children?.[0] ?? findNode(source.root, (node) => node.type === 'string' && node.value === key);
    return node ? positionAt(source.text, node.offset) : undefined;
  }
}
