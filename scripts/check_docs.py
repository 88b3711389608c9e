#!/usr/bin/env python3
"""The documents point only inside the repository, and at things that exist.

  check_docs.py [ROOT]        exit 1 listing every problem, 0 without
  check_docs.py --self-test   each check must fire on a planted fault, and not on a clean tree

Over every text file of the checkout (build folders, out/ and corpus/ aside):
  outside     no reference to files outside the repository: a workspace path (/work/...), the
              design file that lived beside the checkout (shared/DESIGN.md, DESIGN.md), a
              relative path climbing out of the checkout (../shared, ../../x)
  doc         every docs/NAME.md named exists
  section     every `docs/NAME.md, "Title"` names a heading, a bold label (**Title**) or a
              line of that document's list of dated logs holding the title
and over README.md and docs/*.md (the dated logs in docs/log/ included):
  link        every relative Markdown link [text](path) resolves
The dated logs describe their day: the doc and section checks skip them.
"""
import os
import re
import sys
import tempfile

SKIP_DIRS = re.compile(r'^(build.*|out|corpus|findings|\.git|__pycache__)$')
TEXT_EXT = ('.md', '.c', '.h', '.cpp', '.hip', '.cu', '.def', '.sh', '.py', '.cmake', '.txt',
            '.yml', '.yaml', '.json', '.gp', '.Dockerfile', '.in')
OUTSIDE = re.compile(r'/work/|\bshared/DESIGN|(?<![\w/.-])DESIGN\.md|(?<![\w.])\.\./(?:\.\./)*shared\b')
DOC = re.compile(r'\bdocs/([A-Za-z0-9_]+\.md)')
SECTION = re.compile(r'\bdocs/([A-Za-z0-9_]+\.md),? "([^"\n]+)"')
LINK = re.compile(r'\]\(([^)\s]+)\)')


def text_files(root):
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not SKIP_DIRS.match(x)]
        for f in files:
            p = os.path.join(d, f)
            if not (f.endswith(TEXT_EXT) or f in ('CMakeLists.txt', 'Dockerfile')
                    or os.path.dirname(p).endswith(('scripts', '.ci'))):
                continue
            if os.path.abspath(p) == os.path.abspath(__file__):
                continue   # this file names the faults it looks for
            try:
                if os.path.getsize(p) > 2_000_000:
                    continue
                with open(p, encoding='utf-8') as fh:
                    yield os.path.relpath(p, root), fh.read()
            except (UnicodeDecodeError, OSError):
                continue


def titles(path):
    """What a section reference may name in a document: headings, bold labels, log lists."""
    with open(path, encoding='utf-8') as fh:
        lines = fh.read().split('\n')
    out = []
    for line in lines:
        if line.startswith('#'):
            out.append(line.lstrip('#').strip())
        elif line.lstrip().startswith('- [') and 'log/' in line:
            out.append(line)
        out.extend(re.findall(r'\*\*([^*]+)\*\*', line))
    return out


def check(root):
    problems = []
    cache = {}
    for rel, text in text_files(root):
        is_log = rel.startswith(os.path.join('docs', 'log') + os.sep)
        for n, line in enumerate(text.split('\n'), 1):
            where = f'{rel}:{n}'
            m = OUTSIDE.search(line)
            if m:
                problems.append(f'{where}: outside: "{m.group(0)}" refers to a file outside the '
                                f'repository (allowed: paths inside it, e.g. docs/ARCHITECTURE.md)')
            if is_log:
                pass
            else:
                for d in DOC.findall(line):
                    if not os.path.isfile(os.path.join(root, 'docs', d)):
                        problems.append(f'{where}: doc: docs/{d} does not exist')
                for d, title in SECTION.findall(line):
                    path = os.path.join(root, 'docs', d)
                    if not os.path.isfile(path) or title.startswith('<'):
                        continue
                    if path not in cache:
                        cache[path] = titles(path)
                    if not any(title in t for t in cache[path]):
                        problems.append(f'{where}: section: docs/{d} has no section "{title}" '
                                        f'(a heading, a **bold label** or a dated log it lists)')
            if rel.endswith('.md'):
                for target in LINK.findall(line):
                    if re.match(r'^[a-z]+:', target) or target.startswith('#'):
                        continue
                    path = os.path.normpath(os.path.join(root, os.path.dirname(rel),
                                                         target.split('#')[0]))
                    if not path.startswith(os.path.abspath(root)) and not path.startswith(root):
                        problems.append(f'{where}: outside: link "{target}" leaves the repository')
                    elif not os.path.exists(path):
                        problems.append(f'{where}: link: "{target}" does not exist')
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as t:
        os.makedirs(os.path.join(t, 'docs', 'log'))

        def write(rel, text):
            with open(os.path.join(t, rel), 'w', encoding='utf-8') as fh:
                fh.write(text)

        write('docs/A.md', '# A\n\n## First part\n\n- **Files written**: x\n')
        write('docs/log/2026-01-01-old.md', '# old\n\nsee docs/GONE.md, "Nothing"\n')
        write('README.md', 'See [A](docs/A.md) and docs/A.md, "First part" and '
                           'docs/A.md, "Files written".\n')
        write('x.c', '/* docs/A.md, "First part" */\n')
        clean = check(t)
        if clean:
            print('check_docs self-test: a clean tree gave problems:\n  ' + '\n  '.join(clean))
            return 1
        planted = {
            'outside': ('y.c', '/* the layers (shared/DESIGN.md) */\n'),
            'doc': ('z.h', '/* see docs/NOPE.md */\n'),
            'section': ('w.c', '/* docs/A.md, "Second part" */\n'),
            'link': ('docs/B.md', '# B\n[gone](missing.md)\n'),
        }
        bad = 0
        for kind, (rel, text) in planted.items():
            write(rel, text)
            found = [p for p in check(t) if f': {kind}: ' in p]
            os.remove(os.path.join(t, rel))
            if not found:
                print(f'check_docs self-test: the {kind} check missed a planted fault in {rel}')
                bad = 1
        for extra in ('/work/main/README.md', '../shared/DESIGN.md', 'DESIGN.md'):
            write('v.md', f'see {extra}\n')
            if not any(': outside: ' in p for p in check(t)):
                print(f'check_docs self-test: the outside check missed "{extra}"')
                bad = 1
            os.remove(os.path.join(t, 'v.md'))
        if not bad:
            print('check_docs self-test: every check fires on its planted fault, none on a clean tree')
        return bad


def main(argv):
    if len(argv) > 1 and argv[1] == '--self-test':
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
    root = os.path.abspath(root)
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f'check_docs: {len(problems)} problem(s)')
        return 1
    print('check_docs: every reference points inside the repository and resolves')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
