#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# newlib.sh - build newlib for the kernel once per machine and print where it is.
#
# Usage: scripts/newlib.sh [--print-dir]
#
# The last line on stdout is a directory holding include/, lib/libc.a and
# lib/libm.a.  The Makefile calls this on every build, so when the stamp is
# present we only print the directory.  Otherwise newlib is configured,
# built and installed in a temporary directory under the cache root and then
# renamed into place; a lock keeps concurrent builds (make -j, two trees)
# from racing.  See scripts/newlib-README.txt for what the kernel must
# provide at link time.

set -euo pipefail

NEWLIB_VERSION=3.3.0
NEWLIB_TARBALL=${NEWLIB_TARBALL:-/usr/src/newlib/newlib-$NEWLIB_VERSION.tar.xz}

self=$(readlink -f "${BASH_SOURCE[0]}")
scripts=${self%/*}

die() {
	echo "newlib.sh: $*" >&2
	exit 1
}

case "${1-}" in
"" | --print-dir) ;;
-h | --help)
	sed -n '4,14s/^# \{0,1\}//p' "$self"
	exit 0
	;;
*) die "unknown argument '$1' (usage: newlib.sh [--print-dir])" ;;
esac

# The host compiler is the target compiler: x86_64 ELF is x86_64 ELF.  Only
# its own freestanding headers (stddef.h, stdarg.h, limits.h, ...) may be
# seen; -nostdinc keeps glibc's /usr/include out, so a header newlib lacks
# is a build error rather than a silent mix of two libcs.
gcc_include=$(gcc -print-file-name=include)
gcc_version=$(gcc -dumpfullversion)

# The kernel's code-generation flags (DESIGN.md section 5).  -mcmodel=kernel
# because libc.a is linked into the top 2 GiB; no red zone because
# interrupts arrive on the current stack.
kernel_cflags="-O2 -g -mno-red-zone -mcmodel=kernel -fno-pic -fno-pie
	-fno-stack-protector -ffreestanding -fno-asynchronous-unwind-tables
	-D__DYNAMIC_REENT__"

# How newlib talks to the kernel:
#  - __DYNAMIC_REENT__ (above): _REENT is __getreent(), one struct _reent
#    per task.
#  - GETREENT_PROVIDED: don't build newlib's fallback __getreent() (it
#    returns the single global _impure_ptr); forgetting to provide the
#    kernel's one must be a link error, not shared errno/stdio state.
#  - REENTRANT_SYSCALLS_PROVIDED: the kernel defines _sbrk_r, _write_r...
#    itself, and newlib's libc/reent wrappers (which would call sbrk(),
#    write(), ... and set a global 'errno') are compiled out.
#  - configure.host adds -DMISSING_SYSCALL_NAMES for every plain *-elf
#    target; combined with REENTRANT_SYSCALLS_PROVIDED, reent.h would turn
#    each _foo_r(r, ...) into a call to foo(...), so undo it.  The -U comes
#    after newlib's -D on the compiler command line and therefore wins.
newlib_cppflags="-DGETREENT_PROVIDED -DREENTRANT_SYSCALLS_PROVIDED
	-UMISSING_SYSCALL_NAMES"

# newlib's hand-written x86_64 memcpy.S/memset.S/setjmp.S carry no
# .note.GNU-stack, so ld would warn about (and default to) an executable
# stack; say so explicitly for every object.
target_cflags=$(echo $kernel_cflags $newlib_cppflags -Wa,--noexecstack \
	-nostdinc -isystem "$gcc_include")

configure_args=(
	--target=x86_64-elf
	--disable-multilib
	# x86_64-elf has no libgloss/syscalls in newlib anyway; be explicit.
	--disable-newlib-supplied-syscalls
	# Locks are the kernel's: __retarget_lock_* and __lock___*_mutex.
	--enable-newlib-retargetable-locking
	# Full (not nano) formatted I/O: %lld, %zu/%jd/%hhd and %f.
	--enable-newlib-io-long-long
	--enable-newlib-io-c99-formats
	--disable-newlib-nano-formatted-io
	--disable-nls
)

cache_root=${IRQLAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/irqlab}
key=$( {
	echo "$NEWLIB_VERSION $gcc_version"
	echo "$target_cflags"
	echo "${configure_args[*]}"
	cat "$self"
} | sha256sum | cut -c1-8)
name=newlib-$NEWLIB_VERSION-$key
dest=$cache_root/$name
stamp=$dest/.stamp

if [ -f "$stamp" ]; then
	echo "$dest"
	exit 0
fi

[ -f "$NEWLIB_TARBALL" ] || {
	echo "newlib-source is not installed: run apt-get install newlib-source" >&2
	exit 2
}

mkdir -p "$cache_root"
exec 9>"$cache_root/.$name.lock"
if ! flock -n 9; then
	echo "newlib: waiting for another build of $name" >&2
	flock 9
fi
# Someone else may have finished while we waited.
if [ -f "$stamp" ]; then
	echo "$dest"
	exit 0
fi

# A make that runs us must not leak its jobserver, flags or include paths
# into newlib's build.
unset MAKEFLAGS MFLAGS MAKELEVEL CFLAGS CPPFLAGS LDFLAGS CC CPATH \
	C_INCLUDE_PATH LIBRARY_PATH GCC_EXEC_PREFIX
export LC_ALL=C
# newlib runs nine configure scripts one after the other; under dash they
# take about three quarters of the time they take under bash.
if [ -x /bin/dash ]; then
	export CONFIG_SHELL=/bin/dash
fi

log=$cache_root/$name.log
work=$(mktemp -d "$cache_root/.$name.XXXXXX")
trap 'rm -rf "$work"' EXIT
: >"$log"

fail() {
	echo "newlib: $1 failed; last 40 lines of $log:" >&2
	tail -n 40 "$log" >&2
	echo "newlib: build of newlib $NEWLIB_VERSION FAILED (full log: $log)" >&2
	exit 1
}

# Kernel code is built with -mgeneral-regs-only and may only touch SSE
# between kernel_fpu_begin() and kernel_fpu_end().  GCC 12 at -O2 uses SSE
# even in pure integer code - SLP-vectorized pointer pair stores in malloc
# and strstr, the %xmm register save in every variadic prologue (sniprintf)
# - so -fno-tree-vectorize and friends are not enough.  Instead every libc
# object is first compiled with -mgeneral-regs-only too; GCC refuses that
# for any file that really uses float or double, and only those are then
# compiled normally and listed in fpu-objects.txt.  libm is all floating
# point and is built as is.  check_newlib_fpu.py verifies the result.
mkdir -p "$work/bin"
cat >"$work/bin/kcc" <<'EOF'
#!/bin/sh
# Generated by scripts/newlib.sh: libc objects that compile without the FPU
# are built without it; see the comment there.  Written to fork as little
# as possible: it runs once per object.
case $PWD in
*/newlib/libc | */newlib/libc/*)
	obj= compile= prev=
	for a; do
		[ "$a" = -c ] && compile=1
		[ "$prev" = -o ] && obj=$a
		prev=$a
	done
	if [ -n "$compile" ] && [ -n "$obj" ]; then
		# Keep the attempt's diagnostics: shown if it worked (warnings),
		# dropped if it didn't (the retry prints its own).
		if gcc "$@" -mgeneral-regs-only 2>"$obj.kcc-err"; then
			[ -s "$obj.kcc-err" ] && cat "$obj.kcc-err" >&2
			exit 0
		fi
		echo "${PWD##*/newlib/}/$obj" >>"$KCC_FPU_LIST"
	fi
	;;
esac
exec gcc "$@"
EOF
chmod +x "$work/bin/kcc"
export KCC_FPU_LIST=$work/fpu-objects.txt
: >"$KCC_FPU_LIST"

start=$SECONDS
echo "newlib: building newlib $NEWLIB_VERSION in $work (log: $log)" >&2

mkdir -p "$work/src" "$work/build"
tar -xJf "$NEWLIB_TARBALL" -C "$work/src" --strip-components=1 >>"$log" 2>&1 ||
	fail "unpacking $NEWLIB_TARBALL"

configure_line=(
	"$work/src/configure" "${configure_args[@]}" --prefix="$work/stage"
	CC_FOR_TARGET="$work/bin/kcc" AS_FOR_TARGET=as AR_FOR_TARGET=ar
	RANLIB_FOR_TARGET=ranlib NM_FOR_TARGET=nm LD_FOR_TARGET=ld
	OBJDUMP_FOR_TARGET=objdump READELF_FOR_TARGET=readelf
	STRIP_FOR_TARGET=strip CFLAGS_FOR_TARGET="$target_cflags"
	# Nothing here needs documentation built.
	MAKEINFO=true
)
echo "newlib: configure" >&2
(cd "$work/build" && echo "+ ${configure_line[*]}" &&
	${CONFIG_SHELL:-/bin/sh} "${configure_line[@]}") \
	>>"$log" 2>&1 || fail "configure"

echo "newlib: make -j$(nproc)" >&2
make -C "$work/build" -j"$(nproc)" all-target-newlib >>"$log" 2>&1 ||
	fail "make all-target-newlib"
make -C "$work/build" install-target-newlib >>"$log" 2>&1 ||
	fail "make install-target-newlib"

# Flatten $prefix/x86_64-elf/{include,lib} into the layout the Makefile
# expects.  libg.a is a copy of libc.a, drop it.
out=$work/out
mkdir -p "$out/lib"
mv "$work/stage/x86_64-elf/include" "$out/include"
mv "$work/stage/x86_64-elf/lib/libc.a" "$work/stage/x86_64-elf/lib/libm.a" "$out/lib/"
sort "$KCC_FPU_LIST" >"$out/fpu-objects.txt"

# newlib's no-op default locks (misc/lock.c) are only right for a single
# CPU without preemption.  Drop them so that a kernel which forgets one of
# __retarget_lock_* or __lock___*_mutex fails to link instead of running
# the allocator and stdio unlocked.
ar d "$out/lib/libc.a" lib_a-lock.o >>"$log" 2>&1 || fail "removing lib_a-lock.o"
ranlib "$out/lib/libc.a"

# The headers must describe the library as built: code that includes
# <stdio.h> without -D__DYNAMIC_REENT__ would otherwise expand stdout,
# errno helpers etc. against the global _impure_ptr.
cat >>"$out/include/newlib.h" <<'EOF'

/* Added by irqlab scripts/newlib.sh: libc.a is built with dynamic
   reentrancy, _REENT is the kernel's __getreent().  */
#ifndef __DYNAMIC_REENT__
#define __DYNAMIC_REENT__ 1
#endif
EOF

echo "newlib: verify" >&2
verify() {
	local lib=$out/lib/libc.a bad classes undef reent

	# -mcmodel=kernel: absolute addresses in code are sign-extended 32-bit
	# (R_X86_64_32S); a zero-extended R_X86_64_32 cannot reach the top
	# 2 GiB and would mean the flags did not make it to every object.
	bad=$(objdump -r "$out"/lib/lib[cm].a | awk '
		/^RELOCATION RECORDS FOR/ { dbg = ($4 ~ /debug/); next }
		!dbg && $2 == "R_X86_64_32"')
	if [ -n "$bad" ]; then
		echo "R_X86_64_32 relocations in code: not built for -mcmodel=kernel" >>"$log"
		head -n 5 <<<"$bad" >>"$log"
		return 1
	fi
	classes=$(readelf -h "$out"/lib/lib[cm].a | awk '$1 == "Class:" { print $2 }' | sort -u)
	if [ "$classes" != ELF64 ]; then
		echo "libc.a/libm.a members are not all ELF64: $classes" >>"$log"
		return 1
	fi

	# What libc.a expects from the kernel.  Its presence confirms the
	# configuration took: __getreent (GETREENT_PROVIDED), _sbrk_r
	# (REENTRANT_SYSCALLS_PROVIDED), the retarget locks (lock.o gone); and
	# plain sbrk() must not be wanted (MISSING_SYSCALL_NAMES undone).
	undef=$(nm -A "$lib" 2>/dev/null | awk '
		$2 == "U" { u[$3] = 1 }
		NF == 3 && $2 ~ /^[TDBRWVCGS]$/ { d[$3] = 1 }
		END { for (s in u) if (!(s in d)) print s }' | sort)
	echo "$undef" >"$out/undefined-symbols.txt"
	for s in __getreent _sbrk_r _write_r __retarget_lock_acquire_recursive \
		__lock___malloc_recursive_mutex; do
		grep -qx "$s" <<<"$undef" || {
			echo "libc.a does not leave $s to the kernel" >>"$log"
			return 1
		}
	done
	if grep -qx sbrk <<<"$undef"; then
		echo "libc.a wants sbrk(): MISSING_SYSCALL_NAMES leaked in" >>"$log"
		return 1
	fi

	# _REENT must expand to __getreent() even without -D__DYNAMIC_REENT__.
	reent=$(printf '#include <reent.h>\n_REENT\n' |
		gcc -E -P -nostdinc -isystem "$out/include" -isystem "$gcc_include" -)
	if ! grep -q '^ *( *__getreent *( *) *) *$' <<<"$reent"; then
		echo "installed headers do not map _REENT to __getreent()" >>"$log"
		return 1
	fi

	# The FPU rule, for the functions the kernel calls without
	# kernel_fpu_begin().  The Makefile runs the same check.
	python3 "$scripts/check_newlib_fpu.py" "$lib" >>"$log" 2>&1
}
verify || fail "verification"

elapsed=$((SECONDS - start))
{
	echo "newlib $NEWLIB_VERSION built by scripts/newlib.sh in ${elapsed}s on $(date -u +%FT%TZ)"
	echo "gcc $gcc_version"
	echo "CFLAGS_FOR_TARGET=$target_cflags"
	echo "configure ${configure_args[*]}"
	echo "libc objects built with FPU access: $(wc -l <"$out/fpu-objects.txt") (fpu-objects.txt)"
} >"$out/.stamp"
cp "$log" "$out/build.log"

# Publish atomically: readers either see no directory or a complete one.
rm -rf "$dest"
mv -T "$out" "$dest"
echo "newlib: done in ${elapsed}s: $dest" >&2
echo "$dest"
