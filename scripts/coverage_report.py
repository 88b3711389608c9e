#!/usr/bin/env python3
"""Per-variant kernel coverage from llvm-cov exports (scripts/coverage.sh writes them).

    coverage_report.py ROOT VARIANT=EXPORT.json [...]

Each export is the profile of a replay that launched that one variant. A variant's code is
the kernel-file functions its replay entered: the kernels it launched, its launch, configure
and plan functions, the device helpers they call; and, where EXPORT.probe.txt is there (the
names of the functions `redfuzz_cov_replay --probe VARIANT` entered, a few small cases of the
variant's own; llvm-profdata show), those functions, so that a variant the replayed inputs
never reached shows its code unreached (0/N) instead of nothing (0/0). Counts are the
replay's alone. Kernel files are kernels/**.hip and the
headers beside them (kernels/**.h: the max, min, argmax and argmin families are templates in
extremum.h, argext.h, half/*.h over reduce_prims.h, instantiated from their .hip files), the
example plugin's, and a plugin's own files outside the tree (.hip and .h). For each variant:
the source regions of that code reached, and the regions never reached (outermost only, as
file:lines). Then the functions in the same files that no replayed variant entered (a kernel
never launched, a helper never called). Left out: kernels/harness/device.hip (device memory
helpers shared by every variant) and the portability layer (kernels/port.h, port_cuda.h)."""
import functools
import json
import os
import sys

CODE = 0  # llvm-cov region kinds: 0 code, 1 expansion, 2 skipped, 3 gap


SOURCE_EXT = ('.hip', '.h')
LEFT_OUT = {os.path.join('kernels', 'harness', 'device.hip'), os.path.join('kernels', 'port.h'),
            os.path.join('kernels', 'port_cuda.h')}


@functools.lru_cache(maxsize=None)  # a few hundred files, named ~20,000 times an export
def kernel_file(root, path):
    rel = os.path.relpath(path, root)
    if rel.startswith('..'):  # a plugin outside the tree (never a system header)
        return rel if path.endswith(SOURCE_EXT) and not path.startswith('/usr/') else None
    if not rel.endswith(SOURCE_EXT) or rel in LEFT_OUT:
        return None
    return rel if rel.startswith('kernels' + os.sep) or rel.startswith('examples' + os.sep) else None


def load(root, path, keys=None):
    """Functions by (file, first line): (names, entered count, {region: count}); each
    function's profile name to its key into keys (a dict) when given."""
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
        if keys is not None:
            keys[fn['name']] = k
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
        probe = path[:-len('.json')] + '.probe.txt' if path.endswith('.json') else None
        keys = {}
        funcs = load(root, path, keys)
        code = set()
        if probe and os.path.exists(probe):
            with open(probe) as f:
                code = {keys[n] for n in (line.strip() for line in f) if n in keys}
        per_variant.append((variant, funcs, code))

    width = max([len(v) for v, _, _ in per_variant] + [7])
    empty = []
    print('%-*s  %-15s  %s' % (width, 'variant', 'regions reached', 'never reached (file:lines)'))
    entered_any = {}
    files_seen = set()
    all_funcs = {}
    for variant, funcs, code in per_variant:
        regions = {}
        for k, (name, count, regs) in funcs.items():
            all_funcs.setdefault(k, name)
            if count > 0:
                entered_any[k] = True
                files_seen.add(k[0])
            if count > 0 or k in code:
                for key, c in regs.items():
                    regions[key] = regions.get(key, 0) + c
        reached = sum(1 for c in regions.values() if c > 0)
        if not regions:
            empty.append(variant)
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
    # A variant with no region at all entered no instrumented kernel-file function: its code
    # was not built with coverage (a plugin built without the coverage flags) or not entered.
    print('variants with no region (0/0): %d of %d%s' % (len(empty), len(per_variant),
                                                         (': ' + ' '.join(empty)) if empty else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
