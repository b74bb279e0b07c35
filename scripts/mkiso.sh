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
cat > "$root/boot/grub/grub.cfg" <<CFG
serial --unit=0 --speed=115200 --word=8 --parity=no --stop=1
terminal_input serial
terminal_output serial
# A video driver for the framebuffer the multiboot2 header asks for (GRUB-EFI
# loads none by itself: "no suitable video mode found").
insmod all_video
set timeout=0
set default=0
menuentry "irqlab" {
	multiboot2 /boot/kernel.elf $cmdline
	boot
}
CFG
# grub-mkrescue is chatty on success; show its output only when it fails.
if ! grub-mkrescue -o "$out.tmp" "$root" >"$tmp/log" 2>&1; then
	cat "$tmp/log" >&2
	echo "mkiso: grub-mkrescue failed (needs grub-pc-bin, grub-efi-amd64-bin, xorriso, mtools)" >&2
	exit 1
fi
mv "$out.tmp" "$out"
