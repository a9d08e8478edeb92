# Does the order configurations are timed in move their times? (docs/calibration-notes.md, "Run
# order"). Re-times the configurations a committed measurement file holds at one SM count, pass
# after pass: first in the order the campaign used (tile x cluster x decomposition per shape),
# then in a shuffled order per pass (lastwave-bench --shuffle SEED), with the campaign's protocol.
# Usage: OUT=DIR [ROWS=FILE.csv] [SMS=132] [SEEDS="1 2"] tools/probes/order_repeat.sh
#        (lastwave-bench in .device-bin). Writes OUT/pass-given.csv and OUT/pass-shuffle-SEED.csv
#        (SEEDS=" ": the given order only). The passes feed `lastwave calibrate --repeats`.
set -u
ROWS=${ROWS:-configs/measurements/h200-r3/validation.csv}
SMS=${SMS:-132}
SEEDS=${SEEDS:-1 2}
REPS=${REPS:-10}     # traffic_campaign.sh's protocol
WARMUP=${WARMUP:-2}
DECOMPS=dp,splitk:2,splitk:4,streamk,cutlass,two-tile
mkdir -p "$OUT/groups"

# The shapes of ROWS at SMS, grouped by the tile list each was measured with: one shapes file per
# group, named by its tiles (the campaign gave each chunk of shapes its own tile list).
python3 - "$ROWS" "$SMS" "$OUT/groups" <<'EOF'
import csv, sys, collections
rows, sms, out = sys.argv[1], sys.argv[2], sys.argv[3]
tiles = collections.OrderedDict()
with open(rows) as f:
    for r in csv.DictReader(f):
        if r["sms"] == sms:
            ts = tiles.setdefault((r["m"], r["n"], r["k"]), [])  # in the order they ran
            if r["tile"] not in ts:
                ts.append(r["tile"])
groups = collections.OrderedDict()
for shape, ts in tiles.items():
    groups.setdefault(",".join(ts), []).append(shape)
for i, (ts, shapes) in enumerate(groups.items()):
    with open(f"{out}/{i:02d}.csv", "w") as g:
        g.write("m,n,k\n" + "".join(",".join(s) + "\n" for s in shapes))
    with open(f"{out}/{i:02d}.tiles", "w") as g:
        g.write(ts + "\n")
EOF

# One pass over every group: $1 = output name, $2 = shuffle seed (0: the given order).
pass() {
  local name=$1 seed=$2 f parts=()
  for f in "$OUT"/groups/*.csv; do
    .device-bin/lastwave-bench --shapes "$f" --decomposition "$DECOMPS" --tile "$(cat "${f%.csv}.tiles")" \
      --cluster 1x1,2x1 --sms "$SMS" --reps "$REPS" --warmup "$WARMUP" --shuffle "$seed" \
      --out "$f.$name.part" 2>>"$OUT/bench-log.txt"
    parts+=("$f.$name.part")
  done
  { head -1 "${parts[0]}"; for f in "${parts[@]}"; do tail -n +2 "$f"; done; } >"$OUT/pass-$name.csv"
  echo "order_repeat: pass $name: $(($(wc -l <"$OUT/pass-$name.csv") - 1)) rows, $(date -u +%T)"
}

pass given 0
for seed in $SEEDS; do pass "shuffle-$seed" "$seed"; done
