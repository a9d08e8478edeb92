#!/usr/bin/env bash
# Renders the committed plots of docs/HEURISTICS.md (docs/plots/*.svg) from the committed compare
# CSVs in docs/data/ -- no simulation, a second. `tools/plots.sh --simulate` first regenerates the
# CSVs with `lastwave compare` (the big corpus one stored gzip-compressed; `lastwave plot` reads
# FILE.gz as is) under the fitted r9 model (minutes: `best` searches every kernel tile
# x the clusters the model was fitted on x 9 decompositions per shape). Run from anywhere; needs what tools/lastwave.sh needs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

model=configs/models/h200-bf16-wgmma-r9.json
schedules=dp,splitk:2,splitk:4,streamk,cutlass,two-tile,best
lw() { "${LASTWAVE:-tools/lastwave.sh}" "$@"; }

# name | shapes file | title of the corpus | suffix of the stored CSV (.gz: stored compressed)
corpora=(
  "corpus|configs/shapes/streamk-paper-32824.csv|paper-style corpus, log-sampled in [128, 8192]^3|.gz"
  "llm|configs/shapes/llm-projections.csv|Llama-3 8B/70B projections|"
)

mkdir -p docs/data docs/plots
for entry in "${corpora[@]}"; do
  IFS='|' read -r name shapes title gz <<<"$entry"
  csv="docs/data/compare-$name-h200-wgmma.csv$gz"
  if [[ "${1:-}" == "--simulate" ]]; then
    lw compare --gpu h200 --model "$model" --shapes "$shapes" --schedule "$schedules" \
      --format csv --out "${csv%.gz}"
    if [[ -n $gz ]]; then gzip -9nf "${csv%.gz}"; fi
  fi
  sub="$title; H200, fitted r9 model"
  lw plot --from "$csv" --plot "docs/plots/$name-winner-heatmap.svg" --plot-kind heatmap \
    --plot-title "Winning decomposition under 'best' (14 tiles x fitted clusters x 9 decompositions)" \
    --plot-subtitle "$sub"
  lw plot --from "$csv" --plot "docs/plots/$name-tile-heatmap.svg" --plot-kind heatmap \
    --plot-winner tile --plot-title "Winning tile under 'best'" --plot-subtitle "$sub"
  lw plot --from "$csv" --plot "docs/plots/$name-efficiency-cdf.svg" --plot-kind cdf \
    --plot-title "Heuristics vs the simulator's best config" --plot-subtitle "$sub"
done
# The corpus at one K band as well (the paper's heatmaps fix K).
lw plot --from docs/data/compare-corpus-h200-wgmma.csv.gz --plot docs/plots/corpus-winner-heatmap-k4096.svg \
  --plot-kind heatmap --plot-k 2896:5793 \
  --plot-title "Winning decomposition under 'best', K ~ 4096" \
  --plot-subtitle "paper-style corpus; H200, fitted r9 model"
echo "tools/plots.sh: wrote docs/plots/*.svg"
