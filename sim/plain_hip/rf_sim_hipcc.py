#!/usr/bin/env python3
"""rf_sim_hipcc.py: the simulator's plain-HIP build step, a compiler wrapper.

    rf_sim_hipcc.py CLANG++ ARGS...        (as by hand, or as CMake's CXX_COMPILER_LAUNCHER:
                                            rf_add_plugin in cmake/rf_plugin.cmake)

Runs `CLANG++ ARGS...` with each C++/HIP source replaced by a rewritten, preprocessed copy on
the same lines, so that a kernel written as engineers write HIP runs on the CPU simulator with
every check RF_SHARED has (docs/SIMULATOR.md, "Plain HIP"):

  1. Preprocess the source with the command's own flags (dependency flags included, so Ninja
     sees the real headers) and RF_SIM_PLAIN_HIP_PASS, under which sim_port.h makes
     `__shared__` a marker attribute, __attribute__((annotate("rf_shared"))).
  2. Rewrite each `kernel<<<grid, block[, shmem[, stream]]>>>(args)` (outside strings and
     character literals) into ::rf_sim::chevron(...)(args) (sim_port.h).
  3. Ask clang itself where the marked declarations are: an AST dump (-ast-dump) of the
     preprocessed file whose line markers are renumbered so that every reported line is the
     file's own line. Every VarDecl with the marker is rewritten on its own line:
       __shared__ float tile[32][33];         ->  float (&tile)[32][33] = ::rf_sim::lds_bind<
                                                   decltype(tile)>(<site>, "my.hip", 12, 0);
       extern __shared__ float s[];           ->  float (&s)[] = ::rf_sim::lds_dynamic_bind<...>();
     (the site a function-local static of a lambda: one per declaration and per template
     instantiation, as RF_SHARED's), `static` and `extern` dropped from the local declaration.
     A namespace-scope declaration is left alone and each of its uses (DeclRefExpr) becomes
     the same binding, since a namespace-scope reference would bind once.
  4. Compile the rewritten file (-x c++-cpp-output) with the command's other flags. Its line
     markers are the preprocessor's, so __FILE__/__LINE__ (already expanded), diagnostics,
     debug lines and every race, oob and alignment report name the user's file and line.

Exit status: the compiler's; 2 on a bad command line or a declaration it cannot rewrite (a
message names the file, line and why). A command that compiles nothing (a link, -E, -M)
runs unchanged. For `-c -o OBJ` the rewritten source is kept as OBJ.rf.ii.
"""
import os
import re
import subprocess
import sys
import tempfile

SOURCE_EXT = ('.hip', '.cu', '.cpp', '.cc', '.cxx', '.c++', '.cp', '.C', '.CPP')
# Driver options that take their value as the next argument.
VALUE_OPTS = {
    '-o', '-MF', '-MT', '-MQ', '-MJ', '-I', '-isystem', '-iquote', '-idirafter', '-include',
    '-imacros', '-x', '-D', '-U', '-Xclang', '-Xlinker', '-Xassembler', '-Xpreprocessor',
    '-target', '-arch', '-L', '-l', '-T', '-u', '-z', '-F', '-isysroot', '-mllvm',
    '-ivfsoverlay', '-include-pch', '-resource-dir', '-working-directory', '--param',
    '-Xarch_host', '-Xarch_device', '-Xoffload-linker', '-Xopenmp-target',
}
DEP_FLAGS = {'-MD', '-MMD', '-MP'}
PREPROCESSOR_VALUE_FLAGS = ('-I', '-isystem', '-iquote', '-idirafter', '-include', '-imacros',
                            '-D', '-U')
DEP_VALUE_FLAGS = {'-MF', '-MT', '-MQ'}
MARKER = b'__attribute__((annotate("rf_shared")))'
PROG = 'rf_sim_hipcc'


def fail(msg, status=2):
    sys.stderr.write('%s: %s\n' % (PROG, msg))
    sys.exit(status)


def run(cmd, **kw):
    try:
        return subprocess.run(cmd, **kw)
    except OSError as e:
        fail('cannot run %s: %s' % (cmd[0], e))


# ---- the command line ---------------------------------------------------------------------

class Command:
    """The compiler and its arguments, with the sources and their `-x` language found."""

    def __init__(self, argv):
        self.cc, self.args = argv[0], argv[1:]
        self.sources = []    # (index in args, language in effect or None)
        self.inputs = []     # every input's index (sources, objects, libraries)
        lang, i = None, 0
        while i < len(self.args):
            a = self.args[i]
            if a in VALUE_OPTS:
                if i + 1 >= len(self.args):
                    fail('%s needs a value' % a)
                if a == '-x':
                    lang = self.args[i + 1]
                i += 2
                continue
            if a.startswith('-x') and len(a) > 2:
                lang = a[2:]
            elif not a.startswith('-'):
                self.inputs.append(i)
                if lang in ('c++', 'hip', 'cuda') or (lang in (None, 'none') and
                                                      a.endswith(SOURCE_EXT)):
                    self.sources.append((i, lang))
            i += 1
        self.mode = next((m for m in ('-E', '-M', '-MM') if m in self.args), None)
        self.compile_only = '-c' in self.args
        self.output = None
        for i, a in enumerate(self.args):
            if a == '-o':
                self.output = self.args[i + 1]

    def base(self, keep_deps):
        """The arguments without sources, outputs, -x, the action and linker-only ones."""
        src = {i for i, _ in self.sources}
        out, i = [], 0
        while i < len(self.args):
            a = self.args[i]
            if i in src or a in ('-c', '-S', '-fsyntax-only', '-shared', '-static', '-rdynamic',
                                 '-pie', '-no-pie'):
                i += 1
                continue
            if a in ('-o', '-x', '-Xlinker', '-l', '-L') or (a in DEP_VALUE_FLAGS and not keep_deps):
                i += 2
                continue
            if a in VALUE_OPTS:
                out += [a, self.args[i + 1]]
                i += 2
                continue
            if (a.startswith(('-x', '-Wl,', '-l', '-L', '-fuse-ld=')) or
                    (a in DEP_FLAGS and not keep_deps) or
                    (not a.startswith('-') and not a.endswith(SOURCE_EXT))):
                i += 1
                continue
            out.append(a)
            i += 1
        return out

    def final(self, rewritten):
        """The command with each source replaced by its rewritten, preprocessed copy, and
        without the preprocessor's flags (the copy is preprocessed already)."""
        src = dict((i, p) for (i, _), p in zip(self.sources, rewritten))
        out, i = [self.cc], 0
        while i < len(self.args):
            a = self.args[i]
            if i in src:
                out += ['-x', 'c++-cpp-output', src[i]]
                if any(k > i for k in self.inputs):
                    out += ['-x', 'none']   # the inputs after it go by their names again
            elif a in ('-x',) + PREPROCESSOR_VALUE_FLAGS or a in DEP_VALUE_FLAGS:
                i += 1
            elif a in VALUE_OPTS:
                out += [a, self.args[i + 1]]
                i += 1
            elif not (a.startswith(('-x',) + PREPROCESSOR_VALUE_FLAGS) or a in DEP_FLAGS or
                      a.startswith('-nostdinc')):
                out.append(a)
            i += 1
        if self.output is None and len(self.sources) == 1 and ('-c' in self.args or '-S' in self.args):
            stem = os.path.splitext(os.path.basename(self.args[self.sources[0][0]]))[0]
            out += ['-o', stem + ('.o' if '-c' in self.args else '.s')]
        return out


# ---- the preprocessed text ----------------------------------------------------------------

LINE_MARKER = re.compile(rb'^# (\d+) "((?:[^"\\]|\\.)*)"(.*)$')


class Text:
    """A preprocessed file as lines of bytes, with each line's place in the user's sources."""

    def __init__(self, data):
        self.lines = data.split(b'\n')
        self.where = []       # per line: (file as written in the marker, line)
        f, n = b'?', 0
        for ln in self.lines:
            m = LINE_MARKER.match(ln)
            if m:
                f, n = m.group(2), int(m.group(1))
                self.where.append((f, 0))
                continue
            self.where.append((f, n))
            n += 1

    def is_marker(self, k):
        return self.lines[k].startswith(b'#')

    def place(self, k):
        f, n = self.where[k]
        return f.decode('utf-8', 'replace'), n

    def data(self):
        return b'\n'.join(self.lines)


def skip_literal(s, i):
    """s[i] opens a string or character literal: the index past its end."""
    q = s[i:i + 1]
    if q == b'"' and i > 0 and s[i - 1:i] == b'R':
        m = re.compile(rb'"([^()\\ ]{0,16})\(').match(s, i)
        if m:
            end = s.find(b')' + m.group(1) + b'"', m.end())
            return len(s) if end < 0 else end + len(m.group(1)) + 2
    j = i + 1
    while j < len(s):
        c = s[j:j + 1]
        if c == b'\\':
            j += 2
            continue
        if c == q or c == b'\n':
            return j + 1
        j += 1
    return j


def in_code(s, line_start, i):
    """True when s[i] lies outside string and character literals and directive lines
    (literals do not span lines in preprocessed text but for raw strings, taken as they come)."""
    if s[line_start:line_start + 1] == b'#':
        return False
    j = line_start
    while j < i:
        c = s[j:j + 1]
        if c == b'"' or (c == b"'" and not number_before(s, j)):
            j = skip_literal(s, j)
            continue
        j += 1
    return j == i


def number_before(s, i):
    """True when the ' at i is a digit separator (inside a number such as 1'000)."""
    j = i
    while j > 0 and re.match(rb"[0-9A-Za-z_.']", s[j - 1:j]):
        j -= 1
    return j < i and re.match(rb'[0-9]', s[j:j + 1]) is not None


# ---- triple-chevron launches --------------------------------------------------------------

IDENT = re.compile(rb'[A-Za-z_][A-Za-z0-9_]*')


def back_ws(s, j):
    while j > 0 and s[j - 1:j] in (b' ', b'\t', b'\n', b'\r'):
        j -= 1
    return j


def match_back(s, j, open_c, close_c):
    """s[j-1] is close_c: the index of its matching open_c (parentheses nest inside)."""
    depth, paren = 0, 0
    k = j - 1
    while k >= 0:
        c = s[k:k + 1]
        if c == b')' and close_c != b')':
            paren += 1
        elif c == b'(' and close_c != b')':
            paren -= 1
        elif paren == 0 and c == close_c:
            depth += 1
        elif paren == 0 and c == open_c:
            depth -= 1
            if depth == 0:
                return k
        k -= 1
    return None


def kernel_start(s, j):
    """The start of the kernel expression that ends before j (a possibly qualified name with
    template arguments, or a parenthesised expression), or None."""
    j = back_ws(s, j)
    while True:
        if s[j - 1:j] == b')':
            return match_back(s, j, b'(', b')')
        if s[j - 1:j] == b'>':
            k = match_back(s, j, b'<', b'>')
            if k is None:
                return None
            j = back_ws(s, k)
        k = j
        while k > 0 and re.match(rb'[A-Za-z0-9_]', s[k - 1:k]):
            k -= 1
        if k == j:
            return None
        j = k
        q = back_ws(s, j)
        if s[q - 2:q] != b'::':
            return j
        p = back_ws(s, q - 2)
        if s[p - 8:p] == b'template':
            p = back_ws(s, p - 8)
        if not re.match(rb'[A-Za-z0-9_>]', s[p - 1:p] or b' '):
            return q - 2          # a leading ::
        j = p


def match_forward_chevron(s, i):
    """The index of the `>>>` closing the `<<<` that ends at i, or None."""
    depth, n = 0, len(s)
    while i < n:
        c = s[i:i + 1]
        if c in (b'"', b"'"):
            i = skip_literal(s, i)
            continue
        if c in b'([{':
            depth += 1
        elif c in b')]}':
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0 and s[i:i + 3] == b'>>>':
            return i
        i += 1
    return None


def rewrite_chevrons(text):
    """Every launch `K<<<cfg>>>(args)` becomes ::rf_sim::chevron(file, line, [&](auto &&...a)
    { K(a...); }, cfg)(args), on the same lines."""
    s = text.data()
    if b'<<<' not in s:
        return text
    starts = line_starts(text)
    edits, pos = [], 0
    while True:
        i = s.find(b'<<<', pos)
        if i < 0:
            break
        pos = i + 3
        line = bisect_line(starts, i)
        if (not in_code(s, starts[line], i) or
                s[back_ws(s, i) - 8:back_ws(s, i)] == b'operator'):
            continue
        close = match_forward_chevron(s, i + 3)
        if close is None:
            continue
        after = close + 3
        while s[after:after + 1] in (b' ', b'\t', b'\n', b'\r'):
            after += 1
        if s[after:after + 1] != b'(':
            continue
        f, n = text.where[line]
        k = kernel_start(s, i)
        if k is None:
            fail('%s:%d: cannot tell which kernel the <<<...>>> launch calls (write it as '
                 'name<<<...>>>(...) or use hipLaunchKernelGGL)' % (f.decode('utf-8', 'replace'), n))
        edits.append((k, k, 0, b'::rf_sim::chevron("' + f + b'", ' + str(n).encode() +
                      b', [&](auto &&...rf_sim_a) { '))
        edits.append((i, i + 3, 0, b'(rf_sim_a...); }, '))
        edits.append((close, close + 3, 0, b')'))
        pos = close + 3
    if not edits:
        return text
    return Text(apply_edits(s, edits))


def line_starts(text):
    starts = [0]
    for ln in text.lines[:-1]:
        starts.append(starts[-1] + len(ln) + 1)
    return starts


def bisect_line(starts, off):
    lo, hi = 0, len(starts)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if starts[mid] <= off:
            lo = mid
        else:
            hi = mid
    return lo


def apply_edits(s, edits):
    """edits: (start, end, order, text), replacing s[start:end]; inserts at one place go in
    `order`. Identical edits count once; overlapping ones are a bug."""
    uniq = sorted(set(edits), key=lambda e: (e[0], e[2], e[1]))
    out, at = [], 0
    for a, b, _, t in uniq:
        if a < at:
            raise AssertionError('overlapping rewrite at byte %d' % a)
        out += [s[at:a], t]
        at = b
    out.append(s[at:])
    return b''.join(out)


# ---- the AST dump -------------------------------------------------------------------------
# clang's text dump prints one node a line, its depth in the tree prefix ("| |-", "  `-"), and
# locations relative to the last one printed: "<rf3>:12:5" (a file and line), "line:12:5"
# (another line), "col:5" (the line printed last). The dump of a file that includes the
# standard library is ~10 MB, so only the lines that matter are read: each marked declaration
# (the VarDecl above an AnnotateAttr "rf_shared"), its AlignedAttr values, and the uses
# (DeclRefExpr) of the namespace-scope ones; a relative location's line comes from the nearest
# earlier line that names one.

NODE = re.compile(r'^(?P<pre>[| `]*[|`]-)?(?P<kind>[A-Za-z]+)(?: (?P<addr>0x[0-9a-f]+))?(?P<rest>.*)$')
LOC = re.compile(r'<invalid sloc>|<(?:rf\d+|built-in|scratch space)>:(\d+):(\d+)|\bline:(\d+):(\d+)|'
                 r'\bcol:(\d+)')
LINE_SETTER = re.compile(r'<(?:rf\d+|built-in|scratch space)>:(\d+):\d+|\bline:(\d+):\d+')
RANGE = re.compile(r'^(?: (?:parent|prev) 0x[0-9a-f]+)* <(?:<invalid sloc>|[^<>]|<[^<>\s]+>)*>')
QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
TARGET = re.compile(r" Var (0x[0-9a-f]+) '")


class Dump:
    """The dump as one string, read a line at a time from chosen places."""

    def __init__(self, text):
        self.t = text

    def line_at(self, pos):
        """(start, end) of the line holding pos."""
        return self.t.rfind('\n', 0, pos) + 1, self.t.find('\n', pos) if self.t.find('\n', pos) >= 0 else len(self.t)

    def prev_line(self, start):
        return None if start == 0 else self.line_at(start - 1)

    def next_line(self, end):
        return None if end >= len(self.t) else self.line_at(end + 1)

    def depth(self, se):
        raw = self.t[se[0]:se[1]]
        return (len(raw) - len(raw.lstrip('| `-'))) // 2

    def base_line(self, start):
        """The source line a "col:" location at the start of the line at `start` refers to."""
        se = self.prev_line(start)
        while se:
            found = LINE_SETTER.findall(QUOTED.sub('""', self.t[se[0]:se[1]]))
            if found:
                return int(found[-1][0] or found[-1][1])
            se = self.prev_line(se[0])
        return 0

    def node(self, se):
        """(kind, addr, rest, [begin, end, own location]) of the node on the line se."""
        raw = self.t[se[0]:se[1]]
        m = NODE.match(raw)
        if not m:
            return None, None, '', [None, None, None]
        rest = m.group('rest')
        rest_q = QUOTED.sub('""', rest) if '"' in rest else rest
        rng = RANGE.match(rest_q)
        last, in_range, own = self.base_line(se[0]), [], []
        for lm in LOC.finditer(rest_q):
            if lm.group(1):
                last = int(lm.group(1))
                loc = (last, int(lm.group(2)))
            elif lm.group(3):
                last = int(lm.group(3))
                loc = (last, int(lm.group(4)))
            elif lm.group(5):
                loc = (last, int(lm.group(5)))
            else:
                loc = None
            (in_range if rng and lm.start() < rng.end() else own).append(loc)
        locs = [in_range[0] if in_range else None, in_range[-1] if in_range else None,
                own[0] if own else None]
        return m.group('kind'), m.group('addr'), rest, locs

    def parent_kind(self, se):
        d = self.depth(se)
        if d <= 1:
            return 'TranslationUnitDecl'
        p = self.prev_line(se[0])
        while p and self.depth(p) >= d:
            p = self.prev_line(p[0])
        return self.node(p)[0] if p else None


class Decl:
    def __init__(self, addr, parent, locs, rest):
        self.addr, self.parent = addr, parent
        self.begin, self.end, self.name_loc = locs
        m = re.search(r"([A-Za-z_]\w*) '", rest)
        self.name = m.group(1) if m else None
        tail = rest.rsplit("'", 1)[-1]
        self.extern = ' extern' in tail
        self.static = ' static' in tail
        m = re.search(r' prev (0x[0-9a-f]+)', rest)
        self.prev = m.group(1) if m else None
        self.shared = True
        self.align = 0


def parse_dump(text):
    """The marked VarDecls (by address), the uses of the namespace-scope ones (begin, end,
    target address), and the marked nodes that are no variable (kind, location): (line, col)
    locations."""
    dump, decls, refs, others = Dump(text), {}, [], []
    for m in re.finditer(r'AnnotateAttr 0x[0-9a-f]+ [^\n]*"rf_shared"', text):
        attr = dump.line_at(m.start())
        d_attr = dump.depth(attr)
        se = dump.prev_line(attr[0])
        while se and dump.depth(se) >= d_attr:   # back over the VarDecl's earlier children
            se = dump.prev_line(se[0])
        if not se:
            continue
        kind, addr, rest, locs = dump.node(se)
        if kind != 'VarDecl':
            others.append((kind, locs[2] or locs[0]))
            continue
        if addr in decls:
            continue
        decl = decls[addr] = Decl(addr, dump.parent_kind(se), locs, rest)
        # Its alignment attributes: AlignedAttr children and their "value: Int N".
        d = dump.depth(se)
        nxt, in_aligned = dump.next_line(se[1]), False
        while nxt and dump.depth(nxt) > d:
            line = text[nxt[0]:nxt[1]]
            if dump.depth(nxt) == d + 1:
                in_aligned = 'AlignedAttr ' in line
            elif in_aligned and 'value: Int ' in line:
                decl.align = max(decl.align, int(line.split('value: Int ')[1].split()[0]))
            nxt = dump.next_line(nxt[1])
    for addr, decl in list(decls.items()):
        if decl.parent == 'DeclStmt':
            continue   # a local one: its uses keep its name
        for m in re.finditer(r" Var " + addr + " '", text):
            se = dump.line_at(m.start())
            kind, _, rest, locs = dump.node(se)
            if kind == 'DeclRefExpr' and locs[0] and locs[1]:
                refs.append((locs[0], locs[1], addr))
    return decls, refs, others


def dump_input(text):
    """The file for the AST dump: every line marker says the line that follows is its own line,
    under a short name, so that a location the dump prints is a line of this file."""
    names, out = {}, []
    for k, ln in enumerate(text.lines):
        m = LINE_MARKER.match(ln)
        if m:
            tag = names.setdefault(m.group(2), len(names))
            out.append(b'# %d "<rf%d>"%s' % (k + 2, tag, m.group(3)))
        else:
            out.append(ln)
    return b'\n'.join(out)


# ---- the __shared__ rewrite ---------------------------------------------------------------

def fnv64(b):
    h = 0xcbf29ce484222325
    for c in b:
        h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def rewrite_shared(text, decls, refs):
    s = text.data()
    starts = line_starts(text)

    def off(loc):
        return starts[loc[0] - 1] + loc[1] - 1

    def token_end(o):
        m = IDENT.match(s, o)
        return m.end() if m else o + 1

    def where(loc):
        f, n = text.where[loc[0] - 1]
        return f, n

    def declarator_end(o):
        """The end of the declarator whose last token ends at o: its `,` or `;` (a trailing
        attribute stays before the initializer)."""
        depth, i = 0, o
        while i < len(s):
            c = s[i:i + 1]
            if c in (b'"', b"'"):
                i = skip_literal(s, i)
                continue
            if c in b'([{':
                depth += 1
            elif c in b')]}':
                depth -= 1
            elif depth == 0 and c in b',;':
                return i
            i += 1
        return None

    def unsupported(d, why):
        f, n = where(d.name_loc or d.begin)
        fail('%s:%d: __shared__ %s: %s' % (f.decode('utf-8', 'replace'), n, d.name, why))

    shared = decls
    edits = []
    canonical = {}
    for a, d in shared.items():
        c = d
        while c.prev and c.prev in decls:
            c = decls[c.prev]
        canonical[a] = c
    for d in shared.values():
        if not (d.begin and d.end and d.name_loc and d.name):
            unsupported(d, 'the AST gives no place for the declaration')
        name_at = off(d.name_loc)
        if s[name_at:token_end(name_at)] != d.name.encode():
            unsupported(d, 'its name is not where the AST says (a macro-made name?)')
        if d.parent != 'DeclStmt':
            if d.parent not in ('TranslationUnitDecl', 'NamespaceDecl', 'LinkageSpecDecl'):
                unsupported(d, 'declared inside a %s (allowed: a function body or namespace '
                            'scope)' % d.parent)
            continue   # namespace scope: its uses are rewritten below
        f, n = where(d.name_loc)
        name = d.name.encode()
        spec = s[off(d.begin):name_at]
        for kw in (b'extern', b'static'):
            for m in re.finditer(rb'\b' + kw + rb'\b', spec):
                p = off(d.begin) + m.start()
                edits.append((p, p + len(kw), 0, b' ' * len(kw)))
        edits.append((name_at, name_at, 0, b'(&'))
        edits.append((token_end(name_at), token_end(name_at), 0, b')'))
        at = declarator_end(token_end(off(d.end)))
        if at is None:
            unsupported(d, 'no end of the declaration')
        if d.extern:
            init = b' = ::rf_sim::lds_dynamic_bind<decltype(' + name + b')>()'
        else:
            init = (b' = ::rf_sim::lds_bind<decltype(' + name + b')>([]() -> ::rf_sim::LdsSite '
                    b'* { static ::rf_sim::LdsSite rf_sim_site; return &rf_sim_site; }(), "' + f +
                    b'", ' + str(n).encode() + b', ' + str(d.align).encode() + b')')
        edits.append((at, at, 1, init))
    for begin, end, target in refs:
        d = shared.get(target)
        if d is None or d.parent == 'DeclStmt':
            continue
        c = canonical[target]
        a, b = off(begin), token_end(off(end))
        expr = s[a:b]
        if c.extern or d.extern:
            new = b'(::rf_sim::lds_dynamic_bind<decltype(' + expr + b')>())'
        else:
            f, n = where(c.name_loc)
            key = fnv64(f + b':' + str(n).encode() + b':' + c.name.encode())
            new = (b'(::rf_sim::lds_bind<decltype(' + expr + b')>(::rf_sim::lds_namespace_site<'
                   + str(key).encode() + b'ull>(), "' + f + b'", ' + str(n).encode() + b', ' +
                   str(max(c.align, d.align)).encode() + b'))')
        edits.append((a, b, 0, new))
    return apply_edits(s, edits)


# ---- one source -----------------------------------------------------------------------------

def prepare(cmd, idx, lang, workdir, keep_as):
    src = cmd.args[idx]
    ii = keep_as or os.path.join(workdir, '%d.ii' % idx)
    xflag = ['-x', lang] if lang else []
    pre = ([cmd.cc] + cmd.base(keep_deps=cmd.compile_only) +
           ['-Wno-unused-command-line-argument', '-DRF_SIM_PLAIN_HIP_PASS=1', '-E', '-o', ii] +
           xflag + [src])
    status = run(pre).returncode
    if status != 0:
        sys.exit(status)
    with open(ii, 'rb') as fh:
        text = Text(fh.read())
    text = rewrite_chevrons(text)
    data = text.data()
    if MARKER in data:
        probe = os.path.join(workdir, '%d.dump.ii' % idx)
        with open(probe, 'wb') as fh:
            fh.write(dump_input(text))
        dump = run([cmd.cc] + cmd.base(keep_deps=False) +
                   ['-Wno-unused-command-line-argument', '-w', '-fsyntax-only', '-Xclang',
                    '-ast-dump', '-fno-color-diagnostics', '-x', 'c++-cpp-output', probe],
                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if dump.returncode == 0:
            decls, refs, others = parse_dump(dump.stdout.decode('utf-8', 'replace'))
            for kind, loc in others:
                f, n = text.where[loc[0] - 1] if loc else (src.encode(), 0)
                fail('%s:%d: __shared__ on a %s (allowed: a variable in a function body or at '
                     'namespace scope, as on GPUs)' % (f.decode('utf-8', 'replace'), n, kind))
            if not decls:
                fail('%s: clang parsed the file but no __shared__ declaration was found in its '
                     'AST (is __shared__ inside a macro this step cannot see?)' % src)
            data = rewrite_shared(text, decls, refs)
        # else: the compile below reports the errors at the user's lines.
        data = data.replace(MARKER, b' ' * len(MARKER))
    with open(ii, 'wb') as fh:
        fh.write(data)
    return ii


def main(argv):
    if argv and argv[0] == '--':
        argv = argv[1:]
    if not argv or argv[0] in ('-h', '--help'):
        sys.stdout.write(__doc__)
        return 0 if argv else 2
    cmd = Command(argv)
    if cmd.mode or not cmd.sources:
        return run(argv).returncode
    with tempfile.TemporaryDirectory(prefix='rf_sim_hipcc.') as work:
        keep = cmd.output + '.rf.ii' if cmd.compile_only and cmd.output and len(cmd.sources) == 1 \
            else None
        rewritten = [prepare(cmd, i, lang, work, keep) for i, lang in cmd.sources]
        return run(cmd.final(rewritten)).returncode


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
