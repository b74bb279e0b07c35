#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build a FAT ESP disk image for irqlab's native UEFI loader:
#   mkefi.sh [--no-kernel] BOOTX64.EFI KERNEL.ELF "CMDLINE" OUT.img
# Layout: an MBR with one EFI System partition (type 0xef) from 1 MiB, FAT
# formatted with mtools, holding
#   /EFI/BOOT/BOOTX64.EFI   the loader (the removable-media path firmware boots)
#   /irqlab/kernel.elf      the kernel, debug info stripped (kallsyms is built in)
#   /irqlab/cmdline.txt     CMDLINE, when not empty
# A partition table rather than a bare FAT volume: every firmware boots that
# from a USB stick.  --no-kernel leaves kernel.elf out, for the loader's
# failure-path test (and adds a startup.nsh that powers the VM off).
set -euo pipefail

no_kernel=0
if [ "${1:-}" = --no-kernel ]; then
	no_kernel=1
	shift
fi
if [ $# -ne 4 ]; then
	echo "usage: $0 [--no-kernel] BOOTX64.EFI KERNEL.ELF \"CMDLINE\" OUT.img" >&2
	exit 2
fi
loader=$1 kernel=$2 cmdline=$3 out=$4
for f in "$loader" "$kernel"; do
	[ -f "$f" ] || { echo "mkefi: $f does not exist" >&2; exit 2; }
done
case "$cmdline" in
*[[:cntrl:]]*) echo "mkefi: CMDLINE may not contain control characters" >&2; exit 2 ;;
esac
if [ ${#cmdline} -gt 2047 ]; then
	echo "mkefi: CMDLINE has ${#cmdline} characters; the kernel takes at most 2047" >&2
	exit 2
fi
for t in mformat mmd mcopy; do
	command -v $t >/dev/null || { echo "mkefi: $t not found (install mtools)" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
objcopy --strip-debug "$kernel" "$tmp/kernel.elf"
printf '%s\n' "$cmdline" > "$tmp/cmdline.txt"

# Room for the files twice over, 32 MiB at least (FAT16 with 2 KiB clusters).
need=$(( ($(stat -c %s "$tmp/kernel.elf") + $(stat -c %s "$loader")) * 2 / 1048576 + 1 ))
part_mb=$(( need > 32 ? need : 32 ))
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
mcopy -i "$part" "$loader" ::/EFI/BOOT/BOOTX64.EFI
if [ $no_kernel = 1 ]; then
	# Test image: once the loader has failed, OVMF falls back to its UEFI
	# shell, which runs startup.nsh from this volume: power off, so the
	# test ends without waiting for its timeout.
	printf 'reset -s\r\n' > "$tmp/startup.nsh"
	mcopy -i "$part" "$tmp/startup.nsh" ::/startup.nsh
else
	mcopy -i "$part" "$tmp/kernel.elf" ::/irqlab/kernel.elf
fi
[ -z "$cmdline" ] || mcopy -i "$part" "$tmp/cmdline.txt" ::/irqlab/cmdline.txt
mkdir -p "$(dirname "$out")"
mv "$img" "$out"
