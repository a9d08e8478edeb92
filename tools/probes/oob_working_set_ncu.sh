# ncu probe of two model terms (one device command): out-of-bounds A rows (dp, M = 1/16/128,
# N 10240, K 8192) and Stream-K scatter vs dp (1024x7168x16384): time, L2 requests/sectors/hit
# rate/throughput, DRAM bytes read; then the same shapes timed by lastwave-bench. Binaries in
# .device-bin (carried); results under $OUT.
set -u
cd .device-bin
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv > $OUT/card.txt
M=gpu__time_duration.sum,lts__t_requests.sum,lts__t_sectors.sum,lts__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum
for s in "1 10240 8192 dp" "16 10240 8192 dp" "128 10240 8192 dp" "1024 7168 16384 dp" "1024 7168 16384 streamk"; do
  set -- $s
  timeout 120 ncu --clock-control none --metrics $M -k regex:gemm_kernel --launch-count 1 --csv ./lastwave-bench --m $1 --n $2 --k $3 --decomposition $4 --reps 1 --warmup 0 > $OUT/ncu_${1}x${2}x${3}_$4.csv 2> $OUT/ncu_${1}x${2}x${3}_$4.err
  echo "$s rc=$?"
done
printf "m,n,k\n1,10240,8192\n16,10240,8192\n128,10240,8192\n1024,7168,16384\n" > /tmp/s.csv
./lastwave-bench --shapes /tmp/s.csv --decomposition dp,streamk --reps 20 --out $OUT/bench.csv > $OUT/bench-log.txt 2>&1; echo bench rc=$?
nvidia-smi --query-gpu=clocks.sm --format=csv >> $OUT/card.txt
