# ncu probe of the r5 panel reuse gaps (one device command): paper Stream-K against CUTLASS's walk
# of the same tiles, with about one tile per CTA and long K (the CTAs start their tiles at staggered
# k), and the working-set case of tools/probes/oob_working_set_ncu.sh; see ncu_probe.sh.
set -u
bash "$(dirname "$0")/ncu_probe.sh" "608 3584 18944 streamk" "608 3584 18944 cutlass" \
  "3984 512 32768 streamk" "3984 512 32768 cutlass" "1024 7168 16384 cutlass"
