#!/usr/bin/env python3
"""torch.softmax(x, dim=-1) on a float32 CUDA tensor, timed like `redfuzz bench` times its
kernels: warmup launches, then each launch alone between two CUDA events, the median.
Input: uniform in [-1, 1), as the bench's. Prints one line ending in 'median_ms M, GB/s G'
(GB/s from 2*rows*cols*4 bytes, the bench's softmax definition), or 'torch: not available
(why)' with exit status 0 when torch or a CUDA device is missing (scripts/bench.sh)."""
import argparse
import statistics
import sys


def shape(text):
    rows, sep, cols = text.partition("x")
    if not sep or not rows.isdigit() or not cols.isdigit() or int(rows) < 1 or int(cols) < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not RxC with R and C positive")
    return int(rows), int(cols)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shape", type=shape, default=(4096, 1024), help="RxC (default 4096x1024)")
    ap.add_argument("--warmup", type=int, default=10, help="untimed launches (default 10)")
    ap.add_argument("--repeat", type=int, default=50, help="timed launches (default 50)")
    args = ap.parse_args()
    if args.warmup < 0 or args.repeat < 1:
        ap.error("--warmup must be >= 0 and --repeat >= 1")
    try:
        import torch
    except ImportError as e:
        print(f"torch: not available (import torch: {e})")
        return 0
    if not torch.cuda.is_available():
        print("torch: not available (no CUDA device)")
        return 0

    rows, cols = args.shape
    gen = torch.Generator(device="cuda").manual_seed(1)
    x = torch.rand(rows, cols, device="cuda", dtype=torch.float32, generator=gen) * 2 - 1
    for _ in range(args.warmup):
        torch.softmax(x, dim=-1)
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(args.repeat):
        start.record()
        torch.softmax(x, dim=-1)
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    ms = statistics.median(times)
    gbps = 2 * rows * cols * 4 / ms / 1e6
    print(f"torch: torch.softmax(x, dim=-1) {rows}x{cols} float32 on "
          f"{torch.cuda.get_device_name()}, torch {torch.__version__}, warmup {args.warmup}, "
          f"repeat {args.repeat}, CUDA events: median_ms {ms:.4f}, GB/s {gbps:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
