#!/usr/bin/env bash
# Packs the simulator build into DIR, to run on another Linux x86-64 host that lacks our
# libraries (MPFR, GMP, libstdc++ of this build) or has older ones: the binary as
# DIR/redfuzz.bin, every shared library `ldd` names and the dynamic loader beside it, and a
# launcher DIR/redfuzz that runs the binary through that loader with DIR as its only library
# path, so nothing of the host's /lib is used. `scripts/bench-huge.sh --redfuzz DIR/redfuzz`
# takes the launcher.
#
#   scripts/simpack.sh [--redfuzz PATH] DIR
#
# PATH defaults to build/fuzz/redfuzz. DIR is made if missing; files of an earlier pack are
# replaced. The pack runs one process (no exec of itself), so the launcher covers `sweep`
# too. Exit 2 on bad usage, 1 when a copy fails.
set -euo pipefail
redfuzz=build/fuzz/redfuzz
dir=
while [ $# -gt 0 ]; do
  case "$1" in
    --redfuzz) [ $# -ge 2 ] || { echo "simpack.sh: --redfuzz needs a path" >&2; exit 2; }
               redfuzz=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "simpack.sh: unknown option '$1' (allowed: --redfuzz PATH, DIR)" >&2; exit 2 ;;
    *) [ -z "$dir" ] || { echo "simpack.sh: one DIR only (got '$dir' and '$1')" >&2; exit 2; }
       dir=$1; shift ;;
  esac
done
[ -n "$dir" ] || { echo "usage: simpack.sh [--redfuzz PATH] DIR" >&2; exit 2; }
[ -x "$redfuzz" ] && [ -f "$redfuzz" ] || { echo "simpack.sh: --redfuzz: '$redfuzz' is not an executable" >&2; exit 2; }
mkdir -p "$dir"
# ldd lines: "libx.so => /path (addr)", the loader "/lib64/ld-linux-x86-64.so.2 (addr)",
# "linux-vdso.so.1 (addr)" (in the kernel: nothing to copy). A "not found" cannot be packed.
deps=$(ldd "$redfuzz")
if grep -q 'not found' <<<"$deps"; then
  echo "simpack.sh: $redfuzz has libraries ldd cannot find:" >&2
  grep 'not found' <<<"$deps" >&2
  exit 1
fi
loader=$(awk '$1 ~ /^\/.*ld-linux/ {print $1}' <<<"$deps")
[ -n "$loader" ] || { echo "simpack.sh: ldd names no dynamic loader for $redfuzz (a static binary needs no pack)" >&2; exit 1; }
cp -fL "$loader" "$dir/ld-linux-x86-64.so.2"
awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' <<<"$deps" | while read -r name path; do
  cp -fL "$path" "$dir/$name"
done
cp -fL "$redfuzz" "$dir/redfuzz.bin"
cat > "$dir/redfuzz" <<'EOF'
#!/bin/sh
# redfuzz through the loader and libraries packed beside it (scripts/simpack.sh).
here=$(dirname "$(readlink -f "$0")")
exec "$here/ld-linux-x86-64.so.2" --library-path "$here" "$here/redfuzz.bin" "$@"
EOF
chmod +x "$dir/redfuzz" "$dir/ld-linux-x86-64.so.2" "$dir/redfuzz.bin"
echo "simpack.sh: $dir/redfuzz ($(ls "$dir" | wc -l) files, $(du -sh "$dir" | cut -f1))"
