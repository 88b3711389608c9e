#!/usr/bin/env python3
"""Per-variant kernel coverage from llvm-cov exports (scripts/coverage.sh writes them).

    coverage_report.py ROOT VARIANT=EXPORT.json [...]

Each export is the profile of a replay that launched that one variant. A variant's code is
the kernel-file functions (kernels/**.hip, plugins' files too) its replay entered: the
kernels it launched, its launch, configure and plan functions, the device helpers inlined
into them. For each variant: the source regions of that code reached, and the regions never
reached (outermost only, as file:lines). Then the functions in the same files that no
replayed variant entered (a kernel never launched, a helper never called).
kernels/harness/device.hip (device memory helpers shared by every variant) is left out."""
import json
import os
import sys

CODE = 0  # llvm-cov region kinds: 0 code, 1 expansion, 2 skipped, 3 gap


def kernel_file(root, path):
    rel = os.path.relpath(path, root)
    if rel.startswith('..'):
        return rel if path.endswith('.hip') else None  # a plugin outside the tree
    if not rel.endswith('.hip') or rel == os.path.join('kernels', 'harness', 'device.hip'):
        return None
    return rel if rel.startswith('kernels' + os.sep) or rel.startswith('examples' + os.sep) else None


def load(root, path):
    """Functions by (file, first line): (names, entered count, {region: count})."""
    with open(path) as f:
        data = json.load(f)['data'][0]
    funcs = {}
    for fn in data['functions']:
        names = fn['filenames']
        main = kernel_file(root, names[0]) if names else None
        if not main:
            continue
        regions = {}
        first = None
        for r in fn['regions']:
            ls, cs, le, ce, count, fid, _, kind = r[:8]
            if kind != CODE:
                continue
            rf = kernel_file(root, names[fid])
            if not rf:
                continue
            if first is None and rf == main:
                first = ls
            key = (rf, ls, cs, le, ce)
            regions[key] = regions.get(key, 0) + count  # template instances add up
        if first is None:
            continue
        k = (main, first)
        name, count, regs = funcs.get(k, (fn['name'], 0, {}))
        for key, c in regions.items():
            regs[key] = regs.get(key, 0) + c
        funcs[k] = (name, count + fn['count'], regs)
    return funcs


def outermost_zero(regions):
    """Zero-count regions not inside another zero-count region, as file -> [(l1, l2)]."""
    zero = sorted((k for k, c in regions.items() if c == 0), key=lambda k: (k[0], k[1], k[2], -k[3], -k[4]))
    out, last = {}, None
    for f, ls, cs, le, ce in zero:
        if last and last[0] == f and (ls, cs) >= (last[1], last[2]) and (le, ce) <= (last[3], last[4]):
            continue
        last = (f, ls, cs, le, ce)
        spans = out.setdefault(f, [])
        if spans and ls <= spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], max(spans[-1][1], le))
        else:
            spans.append((ls, le))
    return out


def fmt_spans(by_file):
    parts = []
    for f in sorted(by_file):
        lines = ','.join(str(a) if a == b else '%d-%d' % (a, b) for a, b in by_file[f])
        parts.append('%s:%s' % (f, lines))
    return ' '.join(parts)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    root = os.path.realpath(argv[1])
    per_variant = []
    for arg in argv[2:]:
        variant, _, path = arg.partition('=')
        per_variant.append((variant, load(root, path)))

    width = max([len(v) for v, _ in per_variant] + [7])
    print('%-*s  %-15s  %s' % (width, 'variant', 'regions reached', 'never reached (file:lines)'))
    entered_any = {}
    files_seen = set()
    all_funcs = {}
    for variant, funcs in per_variant:
        regions = {}
        for k, (name, count, regs) in funcs.items():
            all_funcs.setdefault(k, name)
            if count > 0:
                entered_any[k] = True
                files_seen.add(k[0])
                for key, c in regs.items():
                    regions[key] = regions.get(key, 0) + c
        reached = sum(1 for c in regions.values() if c > 0)
        missing = fmt_spans(outermost_zero(regions))
        print('%-*s  %-15s  %s' % (width, variant, '%d/%d' % (reached, len(regions)),
                                   missing if missing else '-'))
    never = sorted(k for k in all_funcs if k[0] in files_seen and k not in entered_any)
    if never:
        print('functions no replayed variant entered:')
        for f, line in never:
            print('  %s:%d %s' % (f, line, all_funcs[(f, line)]))
    else:
        print('functions no replayed variant entered: none')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
