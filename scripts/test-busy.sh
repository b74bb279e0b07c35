#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make test-busy: the test suite with CPU hogs running beside it, as on a
# machine where other work shares the cores.
#
#   scripts/test-busy.sh HOGS [test/run arguments...]
#
# HOGS busy loops (default in the Makefile: one per core, so the load is
# about twice the cores while QEMU runs) start before test/run and are
# killed when it ends, however it ends.  The exit status is test/run's.
# The hogs run at the default nice level: the suite must hold when it does
# not get the machine to itself, not only when it is favoured.
set -u

me=scripts/test-busy.sh
hogs=${1:-}
case "$hogs" in
''|*[!0-9]*) echo "$me: HOGS='$hogs': expected a number of busy loops, 0..64" >&2; exit 2 ;;
esac
if [ "$hogs" -gt 64 ]; then
	echo "$me: HOGS=$hogs: at most 64 busy loops" >&2
	exit 2
fi
shift

pids=()
stop_hogs() {
	[ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
	wait "${pids[@]}" 2>/dev/null
	pids=()
}
trap 'stop_hogs; exit 130' INT TERM
for ((i = 0; i < hogs; i++)); do
	( trap - INT TERM; while :; do :; done ) &
	pids+=($!)
done
echo "$me: $hogs CPU hog(s) running beside the suite (pids ${pids[*]:-none})"
test/run "$@"
rc=$?
stop_hogs
echo "$me: test/run exited $rc with $hogs hog(s) beside it"
exit $rc
