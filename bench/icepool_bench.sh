#!/usr/bin/env bash
# Installs icepool 2.1.3 (from PyPI) into bench/.venv and times it on fray's reference cases.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x bench/.venv/bin/python ]; then
  python3 -m venv bench/.venv
fi
bench/.venv/bin/pip install -q icepool==2.1.3
cargo build --release -q --bin fray
bench/.venv/bin/python bench/icepool_bench.py
