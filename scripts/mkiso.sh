#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build a hybrid BIOS+UEFI GRUB image:
#   mkiso.sh BOOTX64.EFI KERNEL.ELF "CMDLINE" OUT.iso
# GRUB talks on the serial port only and boots the kernel through multiboot2.
# The image also carries irqlab's native UEFI loader: a small FAT volume
#   /EFI/irqlab/BOOTX64.EFI   the loader (not \EFI\BOOT: the firmware starts GRUB)
#   /irqlab/kernel.elf        the kernel, debug info stripped
#   /irqlab/cmdline.txt       CMDLINE, when not empty
#   /irqlab/iso-<id>.marker   what GRUB's search finds this volume by
# appended to the ISO as partition 3 (type 0xef; a GPT entry beside GRUB's
# own) for a USB stick, and listed as a second El Torito UEFI boot image
# for a CD, where the firmware mounts El Torito images rather than
# partitions.  On UEFI GRUB's menu has an entry that chainloads it.
# Environment: MENU_TIMEOUT (seconds GRUB waits; 0 = none), ISO_DEFAULT
# (cmdline: entry 0, CMDLINE through multiboot2; native: on UEFI the
# native-loader entry, on BIOS still entry 0).
# ISO_CELLS=FILE (make iso-experiments): instead of KERNEL.ELF's workload
# entries, one entry per line of FILE, "experiment<TAB>config<TAB>workload
# <TAB>cmdline" (tools/irqlab cells), booting /boot/<config>.elf, copied
# from ISO_KERNELS/<config>/kernel.elf (default build), with that command
# line.  KERNEL.ELF and CMDLINE still go on the native loader's volume.
# ISO_ENTRY=experiment/config/workload makes that cell GRUB's default (a
# machine whose serial line cannot send: it boots that cell at once).
set -euo pipefail

if [ $# -ne 4 ]; then
	echo "usage: $0 BOOTX64.EFI KERNEL.ELF \"CMDLINE\" OUT.iso" >&2
	exit 2
fi
loader=$1 kernel=$2 cmdline=$3 out=$4
prog=mkiso
. "$(dirname "$0")/bootimg.sh"
bootimg_check_inputs "$loader" "$kernel" "$cmdline"
case "$cmdline" in
*\"*|*\;*|*\$*) echo "mkiso: CMDLINE may not contain \" ; or \$ (GRUB would mangle them)" >&2; exit 2 ;;
esac
# Entry 0 boots CMDLINE (what make run and test/run rely on); the others
# are the main workloads, for a machine booted from a USB stick with the
# menu on the serial line (MENU_TIMEOUT seconds to choose; 0 = no menu).
menu_timeout=${MENU_TIMEOUT:-0}
case "$menu_timeout" in
''|*[!0-9]*) echo "mkiso: MENU_TIMEOUT must be a number of seconds" >&2; exit 2 ;;
esac
iso_default=${ISO_DEFAULT:-cmdline}
case "$iso_default" in
cmdline|native) ;;
*) echo "mkiso: ISO_DEFAULT must be cmdline or native" >&2; exit 2 ;;
esac

# "title|id|/boot path|cmdline" per cell, checked before anything is built.
cells=()
if [ -n "${ISO_CELLS:-}" ]; then
	[ -f "$ISO_CELLS" ] || { echo "mkiso: ISO_CELLS: $ISO_CELLS does not exist" >&2; exit 2; }
	kdir=${ISO_KERNELS:-build}
	n=0
	while IFS=$'\t' read -r exp cfg wl cmd rest; do
		n=$((n + 1))
		if [ -z "$cmd" ] || [ -n "$rest" ]; then
			echo "mkiso: $ISO_CELLS:$n: want experiment, config, workload and command line, tab-separated" >&2
			exit 2
		fi
		case "$exp$cfg$wl" in
		*[!A-Za-z0-9_.-]*) echo "mkiso: $ISO_CELLS:$n: names may hold only letters, digits, _ . -" >&2; exit 2 ;;
		esac
		bootimg_check_inputs "$loader" "$kdir/$cfg/kernel.elf" "$cmd"
		case "$cmd" in
		*\"*|*\;*|*\$*) echo "mkiso: $ISO_CELLS:$n: the command line may not contain \" ; or \$" >&2; exit 2 ;;
		esac
		cells+=("$exp: $cfg, $wl|$exp/$cfg/$wl|/boot/$cfg.elf|$cmd")
	done < "$ISO_CELLS"
	[ $n -gt 0 ] || { echo "mkiso: ISO_CELLS: $ISO_CELLS has no cell" >&2; exit 2; }
fi
iso_entry=${ISO_ENTRY:-}
if [ -n "$iso_entry" ]; then
	found=
	for c in "${cells[@]}"; do
		IFS='|' read -r _ id _ _ <<< "$c"
		[ "$id" != "$iso_entry" ] || found=1
	done
	if [ -z "$found" ]; then
		echo "mkiso: ISO_ENTRY=$iso_entry is no cell of ISO_CELLS (experiment/config/workload)" >&2
		exit 2
	fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root="$tmp/root"
mkdir -p "$root/boot/grub" "$(dirname "$out")"
if [ ${#cells[@]} -eq 0 ]; then
	cp "$kernel" "$root/boot/kernel.elf"
else
	# Debug info stripped: a dozen kernels of 5 MiB each would be mostly DWARF.
	for c in "${cells[@]}"; do
		IFS='|' read -r _ _ path _ <<< "$c"
		cfg=${path#/boot/}
		[ -f "$root$path" ] || objcopy --strip-debug "$kdir/${cfg%.elf}/kernel.elf" "$root$path"
	done
fi

# The native loader's volume.  A marker unique to this image, so GRUB
# chainloads the loader of this ISO and not of another irqlab disk.
id=$(date -u +%Y%m%d%H%M%S)-$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')
marker="iso-$id.marker"
objcopy --strip-debug "$kernel" "$tmp/kernel.elf"
printf '%s\n' "$cmdline" > "$tmp/cmdline.txt"
printf 'irqlab ISO %s\n' "$id" > "$tmp/$marker"
# Room for the files twice over (a bigger kernel copied onto a stick),
# 4 MiB at least.  El Torito gives a boot image's size in 512-byte
# sectors in 16 bits: at most 32 MiB.
fat_mb=$(bootimg_fat_mb "$loader" "$tmp/kernel.elf" 4)
if [ $fat_mb -ge 32 ]; then
	echo "mkiso: the loader's volume would need $fat_mb MiB; El Torito allows < 32 MiB" >&2
	exit 1
fi
fat="$tmp/native.img"
truncate -s $(( fat_mb * 1048576 )) "$fat"
mformat -i "$fat" -T $(( fat_mb * 2048 )) -h 64 -s 32 -v IRQLAB_EFI ::
mmd -i "$fat" ::/EFI ::/EFI/irqlab ::/irqlab
mcopy -i "$fat" "$loader" ::/EFI/irqlab/BOOTX64.EFI
mcopy -i "$fat" "$tmp/kernel.elf" ::/irqlab/kernel.elf
mcopy -i "$fat" "$tmp/$marker" "::/irqlab/$marker"
[ -z "$cmdline" ] || mcopy -i "$fat" "$tmp/cmdline.txt" ::/irqlab/cmdline.txt

entry() {
	printf 'menuentry "%s" {\n\tmultiboot2 /boot/kernel.elf %s\n\tboot\n}\n' "$1" "$2"
}
# An experiment's cell: its own kernel, and an id (experiment/config/workload)
# that GRUB's default= and the documentation can name.
cell_entry() {
	printf 'menuentry "%s" --id "%s" {\n\tmultiboot2 %s %s\n\tboot\n}\n' "$1" "$2" "$3" "$4"
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
set default="${iso_entry:-0}"
CFG
	if [ ${#cells[@]} -eq 0 ]; then
		entry "irqlab" "$cmdline"
		entry "irqlab: ktest (every in-kernel test suite)" "run=ktest"
		entry "irqlab: cyclic (timer wakeup latency)" "run=cyclic"
		entry "irqlab: hackbench + cyclic (latency under load)" \
			"run=cyclic,hackbench cyclic.duration_ms=3000 hackbench.groups=2 hackbench.loops=20"
		entry "irqlab: slabbench (SLUB alloc/free costs)" "run=slabbench"
	else
		for c in "${cells[@]}"; do
			IFS='|' read -r title id path cmd <<< "$c"
			cell_entry "$title" "$id" "$path" "$cmd"
		done
	fi
	# Last, so the entries above keep their numbers on both platforms.
	# The loader reads CMDLINE from cmdline.txt on its volume: chainloader
	# gets no arguments, which would replace it.
	cat <<CFG
if [ "\$grub_platform" = efi ]; then
	menuentry "irqlab: native UEFI loader (irqlab-efi, CMDLINE from cmdline.txt)" --id native {
		insmod part_gpt
		insmod fat
		insmod chain
		search --no-floppy --file --set=root /irqlab/$marker
		echo "irqlab: chainloading (\$root)/EFI/irqlab/BOOTX64.EFI"
		chainloader /EFI/irqlab/BOOTX64.EFI
		boot
	}
CFG
	[ "$iso_default" = cmdline ] || printf '\tset default=native\n'
	printf 'fi\n'
} > "$root/boot/grub/grub.cfg"

# Arguments after the tree go to xorriso's mkisofs emulation.  The El
# Torito entry points into the appended partition: one copy serves both.
if ! grub-mkrescue -o "$out.tmp" "$root" \
		-append_partition 3 0xef "$fat" \
		-eltorito-alt-boot -e --interval:appended_partition_3:all:: \
		-no-emul-boot >"$tmp/log" 2>&1; then
	cat "$tmp/log" >&2
	echo "mkiso: grub-mkrescue failed (needs grub-pc-bin, grub-efi-amd64-bin, xorriso, mtools)" >&2
	exit 1
fi
mv "$out.tmp" "$out"
