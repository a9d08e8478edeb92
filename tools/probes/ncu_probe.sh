# ncu probe (one device command): for each "M N K DECOMPOSITION [TILE [CLUSTER]]" argument (default
# tile 128x128, cluster 1x1; 132 SMs), one launch of lastwave-bench's kernel under ncu: time, L2
# requests / sectors / hit rate / throughput, DRAM bytes read (ncu's raw CSV of every launch, each
# after a "# M N K DECOMPOSITION TILE CLUSTER" line, in ncu.csv; its stderr in ncu-log.txt); then
# each case timed by lastwave-bench (bench.csv, 20 reps). Binaries in .device-bin (carried);
# results under $OUT; tools/probes/ncu_rows.py $OUT turns them into the rows of
# configs/measurements/h200-r3/ncu-*.csv.
# Usage: tools/probes/ncu_probe.sh "1024 7168 16384 dp" "4096 7168 16384 dp 64x128 2x1" ...
set -u
cd .device-bin
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $OUT/card.txt
M=gpu__time_duration.sum,lts__t_requests.sum,lts__t_sectors.sum,lts__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum
case_no=0
for s in "$@"; do
  set -- $s
  config="--tile ${5:-128x128} --cluster ${6:-1x1}"
  echo "# $1 $2 $3 $4 ${5:-128x128} ${6:-1x1}" >> $OUT/ncu.csv
  timeout 120 ncu --clock-control none --metrics $M -k regex:gemm_kernel --launch-count 1 --csv ./lastwave-bench --m $1 --n $2 --k $3 --decomposition $4 $config --reps 1 --warmup 0 >> $OUT/ncu.csv 2>> $OUT/ncu-log.txt
  echo "$s rc=$?"
  case_no=$((case_no + 1))
  ./lastwave-bench --m $1 --n $2 --k $3 --decomposition $4 $config --reps 20 --out $OUT/bench-$case_no.csv >> $OUT/bench-log.txt 2>&1 || echo "bench $s failed"
done
{ head -1 $OUT/bench-1.csv; for f in $OUT/bench-*.csv; do tail -n +2 $f; done; } > $OUT/bench.csv && rm -f $OUT/bench-*.csv
nvidia-smi --query-gpu=clocks.sm --format=csv >> $OUT/card.txt
