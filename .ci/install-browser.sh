#!/usr/bin/env bash
# Installs what the real-browser test of `fray serve` needs: Debian's Chromium and ChromeDriver
# (/usr/bin/chromium, /usr/bin/chromedriver). Does nothing when both are there.
set -euo pipefail
if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y chromium chromium-driver
