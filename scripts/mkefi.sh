#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build a FAT ESP disk image for irqlab's native UEFI loader:
#   mkefi.sh [--no-kernel | --shell] BOOTX64.EFI KERNEL.ELF "CMDLINE" OUT.img
# Layout: an MBR with one EFI System partition (type 0xef) from 1 MiB, FAT
# formatted with mtools, holding
#   /EFI/BOOT/BOOTX64.EFI   the loader (the removable-media path firmware boots)
#   /irqlab/kernel.elf      the kernel, debug info stripped (kallsyms is built in)
#   /irqlab/cmdline.txt     CMDLINE, when not empty
# A partition table rather than a bare FAT volume: every firmware boots that
# from a USB stick.  --no-kernel leaves kernel.elf out, for the loader's
# failure-path test (and adds a startup.nsh that powers the VM off).
# --shell tests the load options: the loader goes to /irqlab/irqlab.efi
# (so the firmware finds no boot file and starts its UEFI shell), and a
# startup.nsh starts it with CMDLINE as arguments, while cmdline.txt holds
# a command line the kernel refuses: only the override boots.
set -euo pipefail

no_kernel=0 shell=0
case "${1:-}" in
--no-kernel) no_kernel=1; shift ;;
--shell) shell=1; shift ;;
esac
if [ $# -ne 4 ]; then
	echo "usage: $0 [--no-kernel | --shell] BOOTX64.EFI KERNEL.ELF \"CMDLINE\" OUT.img" >&2
	exit 2
fi
loader=$1 kernel=$2 cmdline=$3 out=$4
prog=mkefi
. "$(dirname "$0")/bootimg.sh"
bootimg_check_inputs "$loader" "$kernel" "$cmdline"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
objcopy --strip-debug "$kernel" "$tmp/kernel.elf"
file_cmdline=$cmdline

# Room for the files twice over, 32 MiB at least (FAT16 with 2 KiB clusters).
part_mb=$(bootimg_fat_mb "$loader" "$tmp/kernel.elf" 32)
img="$tmp/esp.img"
truncate -s $(( (part_mb + 1) * 1048576 )) "$img"
python3 - "$img" $(( part_mb * 2048 )) <<'PY'
import struct, sys
path, sectors = sys.argv[1], int(sys.argv[2])
# One primary partition, LBA 2048.., type 0xef; CHS fields say "use LBA".
entry = struct.pack("<B3sB3sII", 0, b"\xfe\xff\xff", 0xEF, b"\xfe\xff\xff", 2048, sectors)
with open(path, "r+b") as f:
    f.seek(446)
    f.write(entry)
    f.seek(510)
    f.write(b"\x55\xaa")
PY
part="$img@@1M"
mformat -i "$part" -T $(( part_mb * 2048 )) -h 64 -s 32 -H 2048 -v IRQLAB ::
mmd -i "$part" ::/EFI ::/EFI/BOOT ::/irqlab
if [ $shell = 1 ]; then
	mcopy -i "$part" "$loader" ::/irqlab/irqlab.efi
	printf 'fs0:\r\n\\irqlab\\irqlab.efi %s\r\nreset -s\r\n' "$cmdline" > "$tmp/startup.nsh"
	mcopy -i "$part" "$tmp/startup.nsh" ::/startup.nsh
	file_cmdline=run=cmdline.txt-was-read-instead-of-the-load-options
else
	mcopy -i "$part" "$loader" ::/EFI/BOOT/BOOTX64.EFI
fi
if [ $no_kernel = 1 ]; then
	# Test image: once the loader has failed, OVMF falls back to its UEFI
	# shell, which runs startup.nsh from this volume: power off, so the
	# test ends without waiting for its timeout.
	printf 'reset -s\r\n' > "$tmp/startup.nsh"
	mcopy -i "$part" "$tmp/startup.nsh" ::/startup.nsh
else
	mcopy -i "$part" "$tmp/kernel.elf" ::/irqlab/kernel.elf
fi
if [ -n "$file_cmdline" ]; then
	printf '%s\n' "$file_cmdline" > "$tmp/cmdline.txt"
	mcopy -i "$part" "$tmp/cmdline.txt" ::/irqlab/cmdline.txt
fi
mkdir -p "$(dirname "$out")"
mv "$img" "$out"
