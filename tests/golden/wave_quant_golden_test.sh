#!/usr/bin/env bash
# Golden: `lastwave waves` output equals the seed's printed wave_quant.py table byte for byte.
set -euo pipefail
lastwave="$1"
golden="$2"
diff <("$lastwave" waves) "$golden"
# One explicit shape and GPU list gives the matching rows of the same table.
diff <("$lastwave" waves --gpu a100,h100-sxm,b200 --m 1536 --n 1536 | tail -n 3) \
  <(sed -n '8,10p' "$golden")
