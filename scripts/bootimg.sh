# SPDX-License-Identifier: GPL-2.0
# Shared by mkiso.sh and mkefi.sh (sourced, not run): both put the native
# UEFI loader, the kernel and CMDLINE on a FAT volume.  $prog names the
# caller in messages.

# The loader and the kernel exist, CMDLINE fits the kernel's buffer and
# has no control characters, and mtools is there.  Exit 2 / 1 otherwise.
bootimg_check_inputs() {
	local loader=$1 kernel=$2 cmdline=$3 f t

	for f in "$loader" "$kernel"; do
		[ -f "$f" ] || { echo "$prog: $f does not exist" >&2; exit 2; }
	done
	case "$cmdline" in
	*[[:cntrl:]]*) echo "$prog: CMDLINE may not contain control characters" >&2; exit 2 ;;
	esac
	if [ ${#cmdline} -gt 2047 ]; then
		echo "$prog: CMDLINE has ${#cmdline} characters; the kernel takes at most 2047" >&2
		exit 2
	fi
	for t in mformat mmd mcopy; do
		command -v $t >/dev/null ||
			{ echo "$prog: $t not found (install mtools)" >&2; exit 1; }
	done
}

# MiB for a volume holding the loader and the stripped kernel twice over
# (room for a bigger kernel copied on later), at least $3.
bootimg_fat_mb() {
	local loader=$1 kernel=$2 min=$3 need

	need=$(( ($(stat -c %s "$kernel") + $(stat -c %s "$loader")) * 2 / 1048576 + 1 ))
	echo $(( need > min ? need : min ))
}
