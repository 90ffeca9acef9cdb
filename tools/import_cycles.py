#!/usr/bin/env python3
"""Import cycles between files: for each crate under crates/, the graph of which source file
names which (`use crate::…`, `use super::…`, `use self::…`, and such paths in code), and for
web/src the graph of relative `import`s. Prints every cycle and exits 1 if there is one.

A path names the file of the deepest module it reaches (`crate::round::Snapshot` names
round/mod.rs, where the item is re-exported); a file's test module (`#[cfg(test)] mod tests`)
is left out, and a child module naming its parent through `super::` counts like any import.

    python3 tools/import_cycles.py            # every crate and the web client
    python3 tools/import_cycles.py --sizes    # also the files over 600 and 800 lines
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def strip_tests(text):
    """The code without its comments (doc links name no import) and its trailing
    `#[cfg(test)] mod tests { … }` block."""
    m = re.search(r"\n#\[cfg\(test\)\]\s*\nmod tests\b", text)
    text = text[: m.start()] if m else text
    return re.sub(r"//[^\n]*", "", text)


def module_of(src, path):
    """The module path (a list of names) of the file `path` under the crate's `src`."""
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return parts


def file_of(src, module):
    """The file that holds `module`, if it is a file of its own."""
    base = src.joinpath(*module) if module else src
    for candidate in (
        [base.with_suffix(".rs"), base / "mod.rs"] if module else [src / "lib.rs", src / "main.rs"]
    ):
        if candidate.is_file():
            return candidate
    return None


def deepest_file(src, module):
    """The file of the deepest prefix of `module` that is a file."""
    for n in range(len(module), -1, -1):
        f = file_of(src, module[:n])
        if f is not None:
            return f
    return None


PATH = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+|::\{)")
USE = re.compile(r"\buse\s+(crate|super|self)::([^;]*);", re.S)


def paths_in(text):
    """Every `crate::`/`super::`/`self::` path in `text`, grouped `use`s expanded."""
    found = []
    for m in USE.finditer(text):
        found.extend(expand(m.group(1), m.group(2)))
    text = USE.sub("", text)
    for m in PATH.finditer(text):
        if m.group(2) != "::{":
            found.append([m.group(1)] + m.group(2).split("::")[1:])
    return found


def expand(head, rest):
    """The paths of one `use` tree: `a::{b, c::d}` → a::b, a::c::d."""
    rest = re.sub(r"\s+", "", rest)
    out = []

    def walk(prefix, tree):
        depth, start, items = 0, 0, []
        if tree.startswith("{") and tree.endswith("}"):
            tree = tree[1:-1]
            for i, ch in enumerate(tree):
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                elif ch == "," and depth == 0:
                    items.append(tree[start:i])
                    start = i + 1
            items.append(tree[start:])
            for item in items:
                if item:
                    walk(prefix, item)
            return
        if "::" in tree:
            first, more = tree.split("::", 1)
            walk(prefix + [first], more)
        else:
            out.append(prefix + [tree.split(" as ")[0]])

    walk([head], rest)
    return out


def rust_graph(src):
    graph = {}
    for path in sorted(src.rglob("*.rs")):
        here = module_of(src, path)
        text = strip_tests(path.read_text(encoding="utf-8"))
        targets = set()
        for p in paths_in(text):
            head, names = p[0], [n for n in p[1:] if n not in ("*", "self")]
            if head == "crate":
                module = names
            elif head == "super":
                base = here[:-1] if path.name not in ("mod.rs", "lib.rs", "main.rs") else here[:-1]
                while names and names[0] == "super":
                    base, names = base[:-1], names[1:]
                module = base + names
            else:
                module = here + names
            target = deepest_file(src, module)
            if target is not None and target != path:
                targets.add(target)
        graph[path] = targets
    return graph


def web_graph(src):
    graph = {}
    for path in sorted(src.rglob("*.ts")):
        targets = set()
        for m in re.finditer(r"""from\s+['"](\.[^'"]+)['"]""", path.read_text(encoding="utf-8")):
            target = (path.parent / m.group(1)).resolve()
            for candidate in (target.with_suffix(".ts"), target / "index.ts"):
                if candidate.is_file():
                    targets.add(candidate)
        graph[path] = targets
    return graph


def cycles(graph):
    """The strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def main():
    found = []
    for src in sorted(ROOT.glob("crates/*/src")):
        found.extend(cycles(rust_graph(src)))
    found.extend(cycles(web_graph(ROOT / "web" / "src")))
    for component in found:
        print("cycle:", ", ".join(str(p.relative_to(ROOT)) for p in component))
    if "--sizes" in sys.argv:
        for path in sorted(ROOT.glob("crates/*/src/**/*.rs")) + sorted(ROOT.glob("web/src/**/*.ts")):
            n = sum(1 for _ in path.open(encoding="utf-8"))
            if n > 600:
                print(f"{n:5} lines: {path.relative_to(ROOT)}")
    if not found:
        print("no import cycles between files")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
