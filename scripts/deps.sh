#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Make sure every Debian package irqlab needs is installed; install only what is missing.
#
#   scripts/deps.sh           check; as root install what is missing (apt-get), otherwise
#                             print the exact sudo command and exit 1
#   scripts/deps.sh --check   only report (exit 1 if something is missing)
#
# Silent and fast (one dpkg-query call) when everything is present: make run, make test
# and make iso call it every time. An entry "a|b" is satisfied by either package and
# installs the first.
set -euo pipefail

PACKAGES=(
	gcc make binutils ccache
	qemu-system-x86
	grub-pc-bin grub-efi-amd64-bin grub-common xorriso mtools
	gnu-efi ovmf
	newlib-source
	kconfig-frontends
	python3 python3-pexpect python3-yaml python3-scipy
	"gnuplot-nox|gnuplot-qt|gnuplot-x11"
)

me=scripts/deps.sh
check_only=0
case "${1:-}" in
"") ;;
--check) check_only=1 ;;
-h|--help)
	sed -n '3,11s/^# \{0,1\}//p' "$0"
	exit 0 ;;
*)
	echo "$me: unknown option '$1' (valid: --check, --help)" >&2
	exit 2 ;;
esac
if [ $# -gt 1 ]; then
	echo "$me: too many arguments (valid: --check, --help)" >&2
	exit 2
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "$me: dpkg-query not found: this script knows Debian/Ubuntu packages only." >&2
	echo "$me: install the equivalents of: ${PACKAGES[*]//|/ or }" >&2
	exit 1
fi

# Print the entries of PACKAGES that are not installed.
missing_packages() {
	local names=() entry alt installed
	for entry in "${PACKAGES[@]}"; do
		IFS='|' read -r -a alt <<<"$entry"
		names+=("${alt[@]}")
	done
	# "<name> <status>" for every package dpkg knows (unknown ones just print an error).
	installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${names[@]}" 2>/dev/null |
		awk '$2 == "install" && $3 == "ok" && $4 == "installed" { print $1 }' || true)
	for entry in "${PACKAGES[@]}"; do
		IFS='|' read -r -a alt <<<"$entry"
		local ok=0 p
		for p in "${alt[@]}"; do
			if grep -qxF -- "$p" <<<"$installed"; then
				ok=1
				break
			fi
		done
		[ $ok = 1 ] || echo "${alt[0]}"
	done
}

mapfile -t missing < <(missing_packages)

if [ $check_only = 1 ]; then
	for entry in "${PACKAGES[@]}"; do
		first=${entry%%|*}
		if printf '%s\n' "${missing[@]}" | grep -qxF -- "$first"; then
			printf '  %-36s missing\n' "$entry"
		else
			printf '  %-36s ok\n' "$entry"
		fi
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "$me: missing: ${missing[*]} (scripts/deps.sh installs them)"
		exit 1
	fi
	echo "$me: all ${#PACKAGES[@]} packages are installed"
	exit 0
fi

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "$me: missing packages: ${missing[*]}" >&2
	echo "$me: install them with:" >&2
	echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt_install() {
	apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends "${missing[@]}" \
		</dev/null
}
apt_update() {
	echo "$me: apt-get update"
	apt-get -o DPkg::Lock::Timeout=300 update </dev/null
}

echo "$me: installing ${missing[*]}"
# A fresh container has no package lists: update first. Otherwise try with the lists we
# have and update only if that fails (package not found, stale lists giving 404s...).
if ! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; then
	apt_update
fi
if ! apt_install; then
	echo "$me: install failed; updating the package lists and retrying"
	apt_update
	if ! apt_install; then
		echo "$me: apt-get install ${missing[*]} failed (see the apt-get messages above)" >&2
		exit 1
	fi
fi

mapfile -t still < <(missing_packages)
if [ ${#still[@]} -gt 0 ]; then
	echo "$me: still missing after apt-get install: ${still[*]}" >&2
	exit 1
fi
echo "$me: installed ${missing[*]}"
