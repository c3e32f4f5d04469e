#!/usr/bin/env bash
# Install what the tests need and run them: `bash scripts/test.sh [pytest args]`.
#
# The tests run in parallel, one pytest-xdist worker per core (`-n auto`).
# PYTEST_WORKERS=2 (or any count) sets the workers; PYTEST_WORKERS=0 runs every test
# in this one process (for --pdb). `-m "not slow"` leaves out the tests over ~3 s.
#
# System packages come from Debian: chromium (browser tests drive /usr/bin/chromium
# through Playwright, never a downloaded browser) and adr-tools (real adr-tools output
# for format fixtures). See docs/adr/0006-test-setup-with-debian-chromium.md.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export DEBIAN_FRONTEND=noninteractive

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/adr ]; then
    if [ "$(id -u)" -eq 0 ]; then
        sudo=()
    elif command -v sudo >/dev/null 2>&1; then
        sudo=(sudo)
    else
        echo "scripts/test.sh: chromium and adr-tools are missing, and installing them" \
             "needs root or sudo: run 'apt-get install chromium adr-tools' as root" >&2
        exit 1
    fi
    # Another apt or dpkg run may hold the locks: dpkg's lock is waited for by apt
    # itself (DPkg::Lock::Timeout); the package lists' lock is not, so retry a while.
    apt=(apt-get -o DPkg::Lock::Timeout=900)
    for attempt in $(seq 1 60); do
        "${sudo[@]}" "${apt[@]}" update && break
        [ "$attempt" -eq 60 ] && exit 1
        echo "scripts/test.sh: apt-get update failed (lock held?); retrying in 15 s" >&2
        sleep 15
    done
    "${sudo[@]}" "${apt[@]}" install -y chromium adr-tools
fi

python=${PYTHON:-$(command -v python || command -v python3)}
"$python" -m pip install -e '.[test]'
# exec keeps pytest's exit code, 5 (no tests collected) included. A `-n` among the
# arguments wins over PYTEST_WORKERS: pytest keeps the last one given.
exec "$python" -m pytest -n "${PYTEST_WORKERS:-auto}" "$@"
