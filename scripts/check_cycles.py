#!/usr/bin/env python3
"""No include or call cycle between the modules of a folder (run/ by default): a module is a
.c file with its header of the same name (judge.c, judge.h); a header with no .c of its own
(runner_internal.h, route.h's inline helpers aside) is read through: including it includes
what it includes. Module A depends on B when one of A's files includes B's header, or A's .c
calls a function B's .c defines (names rf_*, found by their first `rf_x(` at the start of a
line). Any dependency cycle is printed, with the edges that make it.

  check_cycles.py [DIR]        exit 1 on a cycle, 0 without
  check_cycles.py --self-test  a planted cycle (includes, then calls) must be found
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"(?:[\w./]*/)?([\w.]+\.h)"', re.M)
DEFINE = re.compile(r'^[A-Za-z_][\w \t\*]*?\b(rf_\w+)\s*\([^;{]*\)\s*\{', re.M)
CALL = re.compile(r'\b(rf_\w+)\s*\(')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return COMMENT.sub(" ", f.read())


def graph(root):
    files = [f for f in os.listdir(root) if f.endswith((".c", ".h"))]
    mods = {f[:-2] for f in files if f.endswith(".c")}
    text = {f: read(os.path.join(root, f)) for f in files}
    defined = {}
    for f in files:
        if f.endswith(".c"):
            for m in DEFINE.finditer(text[f]):
                if not re.match(r'\s*static\b', text[f][m.start():m.start() + 40]):
                    defined.setdefault(m.group(1), f[:-2])

    def includes(f, seen):
        """The modules f reaches by includes, reading through header-only headers."""
        out = {}
        for h in INCLUDE.findall(text.get(f, "")):
            if h not in text or h in seen:
                continue
            seen.add(h)
            base = h[:-2]
            if base in mods:
                out.setdefault(base, f"{f} includes {h}")
            else:
                for k, why in includes(h, seen).items():
                    out.setdefault(k, f"{f} includes {h}, which reaches: {why}")
        return out

    edges = {m: {} for m in mods}
    for f in files:
        owner = f[:-2]
        if owner not in mods:
            continue
        for k, why in includes(f, {f}).items():
            if k != owner:
                edges[owner].setdefault(k, why)
        if f.endswith(".c"):
            for name in CALL.findall(text[f]):
                k = defined.get(name)
                if k and k != owner:
                    edges[owner].setdefault(k, f"{f} calls {name} ({k}.c)")
    return edges


def cycles(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def check(root):
    edges = graph(root)
    found = cycles(edges)
    for comp in found:
        print(f"FAIL cycle in {root}: " + " <-> ".join(comp))
        for a in comp:
            for b, why in sorted(edges[a].items()):
                if b in comp:
                    print(f"  {a} -> {b}: {why}")
    print(f"cycle check: {len(edges)} modules, {len(found)} cycles")
    return 1 if found else 0


def self_test():
    ok = 0
    with tempfile.TemporaryDirectory() as t:
        def put(name, body):
            with open(os.path.join(t, name), "w") as f:
                f.write(body)
        put("a.h", "int rf_a(void);\n")
        put("a.c", '#include "a.h"\n#include "b.h"\nint rf_a(void) { return rf_b(); }\n')
        put("b.h", "int rf_b(void);\n")
        put("b.c", '#include "b.h"\nint rf_b(void) { return 1; }\n')
        ok += check(t) == 0                                   # a -> b only: no cycle
        put("b.c", '#include "b.h"\n#include "shared.h"\nint rf_b(void) { return 1; }\n')
        put("shared.h", '#include "a.h"\n')                   # b -> a through a plain header
        ok += check(t) == 1
        put("b.c", '#include "b.h"\nint rf_b(void) { return rf_a(); }\n')   # b calls a
        ok += check(t) == 1
    print(f"cycle check self-test: {ok} passed, {3 - ok} failed")
    return 0 if ok == 3 else 1


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    here = os.path.dirname(os.path.abspath(__file__))
    sys.exit(check(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "run")))
