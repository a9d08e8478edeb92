# The SM clock under long full-chip tensor load (docs/calibration-notes.md, "SM clock under long
# full-chip kernels"; r12's power_throttle / power_boost_us): one shape whose duration grows with
# K (dp, tile 128x256, default 8192 x 8192 x 1024..32768) at 132 and 64 SMs, while nvidia-smi
# logs the SM clock, power draw and the active clock-event reasons every 20 ms.
# Usage: OUT=DIR tools/probes/clock_throttle.sh   (lastwave-bench in .device-bin)
# Writes OUT/clock-bench.csv (bench rows, sm_clock_mhz after each row) and OUT/clock-smi.csv.
set -u
shapes="$OUT/clock-shapes.csv"
{
  echo "m,n,k"
  for k in ${KS:-1024 2048 4096 8192 16384 32768}; do echo "${M:-8192},${N:-8192},$k"; done
} >"$shapes"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,power.limit,temperature.gpu,clocks_event_reasons.active \
  --format=csv -lms 20 >"$OUT/clock-smi.csv" 2>"$OUT/clock-smi-err.txt" &
smi=$!
sleep 1
.device-bin/lastwave-bench --shapes "$shapes" --decomposition dp --tile "${TILE:-128x256}" \
  --sms "${SMS:-132,64}" --reps "${REPS:-20}" --warmup 3 --out "$OUT/clock-bench.csv" \
  2>"$OUT/clock-bench-log.txt"
rc=$?
sleep 1
kill "$smi"
echo "clock_throttle: bench rc=$rc, $(wc -l <"$OUT/clock-smi.csv") smi samples"
