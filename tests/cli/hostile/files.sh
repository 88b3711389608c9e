#!/usr/bin/env bash
# Files written the way databases write them (issue 35; model/file_out.h): an edited
# regression survives a second shrink, a symlink at the target is not followed, a name longer
# than the system allows is refused (not truncated), a read-only folder is an error, and
# outputs the user named (encode OUT, study --out) are never replaced by different bytes.
#   files.sh REDFUZZ SRC
. "$(dirname "$0")/lib.sh" "$@"   # RF, SRC, TMP (removed at exit; the working folder)
failing_case fail.case

# ---- an edited regression survives a second shrink -------------------------------------------
out=$("$RF" shrink fail.case --out r 2>&1); rc=$?
expect shrink-first 0 'r/max-mut-[a-z0-9-]+-[0-9a-f]{8}\.case' $rc "$out"
first=$(echo "$out" | tail -n 1)
echo '# my note: keep this' >> "$first"
cp "$first" edited.copy
out=$("$RF" shrink fail.case --out r 2>&1); rc=$?
expect shrink-again-keeps-edit 0 "a different file .* has this case's name: kept it, wrote ${first%.case}-2\.case" $rc "$out"
check edit-survives cmp -s "$first" edited.copy
check numbered-file-whole grep -q '^expect max/mut-pad-zero ' "${first%.case}-2.case"
out=$("$RF" shrink fail.case --out r 2>&1); rc=$?
expect shrink-third-identical 0 "${first%.case}-2\.case is there already with the same content" $rc "$out"
check three-shrinks-two-files test "$(ls r | wc -l)" -eq 2
check no-temp-left clean_folder r

# ---- a symlink at the target is not followed --------------------------------------------------
rm -f r/*
echo precious > victim
ln -s "$TMP/victim" "$first"
out=$("$RF" shrink fail.case --out r 2>&1); rc=$?
expect symlink-refused 2 "shrink: .*$(basename "$first"): is a symbolic link \(not followed" $rc "$out"
check symlink-target-kept test "$(cat victim)" = precious
check symlink-still-link test -L "$first"
check symlink-no-temp clean_folder r
ln -s "$TMP/victim" link2.bin
out=$("$RF" encode fail.case link2.bin 2>&1); rc=$?
expect encode-symlink-refused 2 'encode: OUT.bin: cannot write link2.bin: link2.bin: is a symbolic link' $rc "$out"
check encode-symlink-target-kept test "$(cat victim)" = precious

# ---- names longer than the system allows: refused, never truncated -----------------------------
long=$(head -c 1000 /dev/zero | tr '\0' x)
out=$("$RF" shrink fail.case --out "$long" 2>&1); rc=$?
expect shrink-long-out 2 "shrink: --out x{1000}: cannot create: File name too long" $rc "$out"
out=$("$RF" encode fail.case "$long.bin" 2>&1); rc=$?
expect encode-long-name 2 'encode: OUT.bin: cannot write x+\.bin: x{80}\.\.\.: a file name of 1004 bytes is longer than this system allows \(at most [0-9]+\); not truncated' $rc "$out"
out=$("$RF" study --variant cpu/pairwise --dist uniform --n-range 16..16 --seeds 1 --out "$long" 2>&1); rc=$?
expect study-long-out 2 "study: --out 'x{1000}': File name too long" $rc "$out"
check long-nothing-made test -z "$(find . -name 'xxxxxxxx*' -print -quit)"

# ---- a read-only folder -----------------------------------------------------------------------
# root writes into a mode 555 folder: then the commands run as nobody (setpriv), if it can.
mkdir ro; chmod 555 ro
as=()
if [ -w ro ] && command -v setpriv > /dev/null; then
  as=(setpriv --reuid=65534 --regid=65534 --clear-groups); chmod 755 "$TMP"
fi
if [ ${#as[@]} -eq 0 ] && [ -w ro ]; then
  echo "skip read-only-folder: this user writes into a mode 555 folder, and no setpriv"
else
  out=$("${as[@]}" "$RF" shrink fail.case --out ro 2>&1); rc=$?
  expect shrink-read-only 2 'shrink: ro/max-mut-[a-z0-9-]+-[0-9a-f]{8}\.case: cannot create a file in ro: Permission denied' $rc "$out"
  out=$("${as[@]}" "$RF" encode fail.case ro/x.bin 2>&1); rc=$?
  expect encode-read-only 2 'encode: OUT.bin: cannot write ro/x.bin: .*Permission denied' $rc "$out"
  check read-only-empty test -z "$(ls -A ro)"
fi

# ---- outputs the user named: identical is fine, different is refused ---------------------------
printf 'op=sum\nn=33\n' > a.case; printf 'op=sum\nn=34\n' > b.case
out=$("$RF" encode a.case a.bin 2>&1); rc=$?
expect encode-new 0 '^$' $rc "$out"
cp a.bin a.keep
out=$("$RF" encode a.case a.bin 2>&1); rc=$?
expect encode-identical 0 '^$' $rc "$out"
out=$("$RF" encode b.case a.bin 2>&1); rc=$?
expect encode-different-refused 2 'encode: OUT.bin: cannot write a.bin: a.bin: exists with other content \(not replaced' $rc "$out"
check encode-kept cmp -s a.bin a.keep
check encode-no-temp clean_folder .
study=(study --variant cpu/pairwise --dist uniform --n-range 16..32 --seeds 1 --out st)
out=$("$RF" "${study[@]}" 2>&1); rc=$?
expect study-new 0 'wrote st/runs.csv' $rc "$out"
cp st/runs.csv runs.keep
out=$("$RF" "${study[@]}" 2>&1); rc=$?
expect study-identical 0 'wrote st/runs.csv' $rc "$out"
out=$("$RF" "${study[@]/32/64}" 2>&1); rc=$?
expect study-different-refused 2 'study: note: st/runs.csv exists: it is kept.*study: st/runs.csv: exists with other content \(not replaced' $rc "$out"
check study-kept cmp -s st/runs.csv runs.keep
check study-no-temp clean_folder st
exit $fail
