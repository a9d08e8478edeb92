# ncu probe (one device command): for each "M N K DECOMPOSITION" argument, one launch of
# lastwave-bench's kernel (tile 128x128x64, cluster 1x1, 132 SMs) under ncu: time, L2 requests /
# sectors / hit rate / throughput, DRAM bytes read (ncu's raw CSV of every launch, each after a
# "# M N K DECOMPOSITION" line, in ncu.csv; its stderr in ncu-log.txt); then the same
# shapes timed by lastwave-bench (bench.csv). Binaries in .device-bin (carried); results under $OUT.
# Usage: tools/probes/ncu_probe.sh "1024 7168 16384 dp" "1024 7168 16384 streamk" ...
set -u
cd .device-bin
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $OUT/card.txt
M=gpu__time_duration.sum,lts__t_requests.sum,lts__t_sectors.sum,lts__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum
shapes=/tmp/ncu_probe_shapes.csv
decompositions=""
echo "m,n,k" > $shapes
for s in "$@"; do
  set -- $s
  echo "# $s" >> $OUT/ncu.csv
  timeout 120 ncu --clock-control none --metrics $M -k regex:gemm_kernel --launch-count 1 --csv ./lastwave-bench --m $1 --n $2 --k $3 --decomposition $4 --reps 1 --warmup 0 >> $OUT/ncu.csv 2>> $OUT/ncu-log.txt
  echo "$s rc=$?"
  grep -q "^$1,$2,$3\$" $shapes || echo "$1,$2,$3" >> $shapes
  case ",$decompositions," in *",$4,"*) ;; *) decompositions=${decompositions:+$decompositions,}$4 ;; esac
done
./lastwave-bench --shapes $shapes --decomposition $decompositions --reps 20 --out $OUT/bench.csv > $OUT/bench-log.txt 2>&1; echo bench rc=$?
nvidia-smi --query-gpu=clocks.sm --format=csv >> $OUT/card.txt
