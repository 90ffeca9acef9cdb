// The analysis board's moves as a tree: each node's first child continues its line, the others
// are variations. A place in the tree is a path of child indices from the root. Pure: no DOM,
// unit-tested (test/tree.test.ts).

export interface TreeNode {
  uci: string;
  san: string;
  fen: string;
  nags?: number[];
  comment?: string;
  children: TreeNode[];
}

export interface Tree {
  fen: string;
  chess960: boolean;
  comment?: string;
  children: TreeNode[];
}

export type Path = number[];

/** The node at `path` (the root for []), or null when the path leads nowhere. */
export function nodeAt(tree: Tree, path: Path): Tree | TreeNode | null {
  let node: Tree | TreeNode = tree;
  for (const i of path) {
    const next: TreeNode | undefined = node.children[i];
    if (!next) return null;
    node = next;
  }
  return node;
}

/** The position at `path`. */
export function fenAt(tree: Tree, path: Path): string {
  return nodeAt(tree, path)?.fen ?? tree.fen;
}

/** The moves from the start to `path`, in UCI. */
export function movesTo(tree: Tree, path: Path): string[] {
  const out: string[] = [];
  let node: Tree | TreeNode = tree;
  for (const i of path) {
    node = node.children[i];
    out.push((node as TreeNode).uci);
  }
  return out;
}

/** Adds `move` after `path` (or finds it there already) and returns the path to it. */
export function addMove(tree: Tree, path: Path, move: Omit<TreeNode, 'children'>): Path {
  const parent = nodeAt(tree, path);
  if (!parent) return path;
  const found = parent.children.findIndex((c) => c.uci === move.uci);
  if (found >= 0) return [...path, found];
  parent.children.push({ ...move, children: [] });
  return [...path, parent.children.length - 1];
}

/** Removes the node at `path` with everything after it; the path to its parent. */
export function deleteAt(tree: Tree, path: Path): Path {
  if (path.length === 0) return path;
  const parent = nodeAt(tree, path.slice(0, -1));
  parent?.children.splice(path[path.length - 1], 1);
  return path.slice(0, -1);
}

/** Makes the variation at `path` the main line at its branch point. */
export function promote(tree: Tree, path: Path): Path {
  if (path.length === 0) return path;
  const parent = nodeAt(tree, path.slice(0, -1));
  const i = path[path.length - 1];
  if (!parent || i === 0) return path;
  const [node] = parent.children.splice(i, 1);
  parent.children.unshift(node);
  return [...path.slice(0, -1), 0];
}

/** The next move along the line from `path` (its first child), if any. */
export function next(tree: Tree, path: Path): Path | null {
  const node = nodeAt(tree, path);
  return node && node.children.length ? [...path, 0] : null;
}

/** The number of the move at ply `ply` (from 1) of a game starting at `fen`, and whether it is
 * White's: "1." for White's first, "1…" for Black's. */
export function moveLabel(fen: string, ply: number): { number: number; white: boolean } {
  const parts = fen.split(' ');
  const blackFirst = parts[1] === 'b';
  const start = Number(parts[5] ?? '1') || 1;
  const index = ply - 1 + (blackFirst ? 1 : 0);
  return { number: start + Math.floor(index / 2), white: index % 2 === 0 };
}

/** The position with the other side to move (en passant dropped): to see what the opponent
 * threatens. Null when the side to move is in check: passing would leave a king en prise. */
export function passTurn(fen: string, inCheck: boolean): string | null {
  if (inCheck) return null;
  const p = fen.split(' ');
  p[1] = p[1] === 'w' ? 'b' : 'w';
  p[3] = '-';
  return p.join(' ');
}
