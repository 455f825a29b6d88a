#!/usr/bin/env bash
# Debian's Chromium (and fonts, so screenshots show text — Chinese included, never tofu
# boxes) for the browser tests, once. Idempotent: does nothing when /usr/bin/chromium and a
# CJK font exist. Never `playwright install`: Playwright drives this system Chromium
# through executable_path.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
CJK_FONT=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc

if [ ! -x "$CHROMIUM" ] || [ ! -f "$CJK_FONT" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        SUDO=()
    elif command -v sudo >/dev/null 2>&1; then
        SUDO=(sudo)
    else
        echo "install-browser: $CHROMIUM or a CJK font is missing and this user is neither root nor has sudo;" >&2
        echo "install-browser: run 'apt-get install -y chromium fonts-noto-cjk' as root" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${SUDO[@]}" apt-get update
    "${SUDO[@]}" apt-get install -y --no-install-recommends chromium fonts-liberation fonts-dejavu-core \
        fonts-noto-cjk
fi

# Debian's wrapper script prints a harmless shell warning on some machines; keep stdout only.
"$CHROMIUM" --version 2>/dev/null
