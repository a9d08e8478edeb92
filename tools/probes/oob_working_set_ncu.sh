# ncu probe of two model terms (one device command): out-of-bounds A rows (dp, M = 1/16/128,
# N 10240, K 8192) and Stream-K scatter vs dp (1024x7168x16384); see tools/probes/ncu_probe.sh.
set -u
bash "$(dirname "$0")/ncu_probe.sh" "1 10240 8192 dp" "16 10240 8192 dp" "128 10240 8192 dp" \
  "1024 7168 16384 dp" "1024 7168 16384 streamk"
