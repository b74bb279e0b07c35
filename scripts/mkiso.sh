#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build a hybrid BIOS+UEFI GRUB image: mkiso.sh KERNEL.ELF "CMDLINE" OUT.iso
# GRUB talks on the serial port only and boots the kernel through multiboot2.
set -euo pipefail

if [ $# -ne 3 ]; then
	echo "usage: $0 KERNEL.ELF \"CMDLINE\" OUT.iso" >&2
	exit 2
fi
kernel=$1 cmdline=$2 out=$3
[ -f "$kernel" ] || { echo "mkiso: $kernel does not exist" >&2; exit 2; }
case "$cmdline" in
*\"*|*\;*|*\$*) echo "mkiso: CMDLINE may not contain \" ; or \$ (GRUB would mangle them)" >&2; exit 2 ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root="$tmp/root"
mkdir -p "$root/boot/grub" "$(dirname "$out")"
cp "$kernel" "$root/boot/kernel.elf"
# Entry 0 boots CMDLINE (what make run and test/run rely on); the others
# are the main workloads, for a machine booted from a USB stick with the
# menu on the serial line (MENU_TIMEOUT seconds to choose; 0 = no menu).
menu_timeout=${MENU_TIMEOUT:-0}
case "$menu_timeout" in
''|*[!0-9]*) echo "mkiso: MENU_TIMEOUT must be a number of seconds" >&2; exit 2 ;;
esac
entry() {
	printf 'menuentry "%s" {\n\tmultiboot2 /boot/kernel.elf %s\n\tboot\n}\n' "$1" "$2"
}
{
	cat <<CFG
serial --unit=0 --speed=115200 --word=8 --parity=no --stop=1
terminal_input serial
terminal_output serial
# A video driver for the framebuffer the multiboot2 header asks for (GRUB-EFI
# loads none by itself: "no suitable video mode found").
insmod all_video
set timeout=$menu_timeout
set default=0
CFG
	entry "irqlab" "$cmdline"
	entry "irqlab: ktest (every in-kernel test suite)" "run=ktest"
	entry "irqlab: cyclic (timer wakeup latency)" "run=cyclic"
	entry "irqlab: hackbench + cyclic (latency under load)" \
		"run=cyclic,hackbench cyclic.duration_ms=3000 hackbench.groups=2 hackbench.loops=20"
	entry "irqlab: slabbench (SLUB alloc/free costs)" "run=slabbench"
} > "$root/boot/grub/grub.cfg"
# grub-mkrescue is chatty on success; show its output only when it fails.
if ! grub-mkrescue -o "$out.tmp" "$root" >"$tmp/log" 2>&1; then
	cat "$tmp/log" >&2
	echo "mkiso: grub-mkrescue failed (needs grub-pc-bin, grub-efi-amd64-bin, xorriso, mtools)" >&2
	exit 1
fi
mv "$out.tmp" "$out"
