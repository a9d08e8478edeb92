#!/usr/bin/env bash
# tools/cubin_diff.py on cubins nvcc compiles here (no GPU): a kernel left alone is identical, one
# whose body changed differs, one that gained a defaulted template argument still matches (a bool
# always, an int where --defaulted names its value), a removed one is missing, an added one is new (exit 0 only without differing or missing kernels); bad
# input is one line and exit 2.
set -uo pipefail
script="$1"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
  echo "FAIL: $1"
  failures=$((failures + 1))
}
cat >"$tmp/old.cu" <<'CU'
template <int kN, bool kA = false>
__global__ void scale(float* x) { x[threadIdx.x] *= kN; }
__global__ void add_one(float* x) { x[threadIdx.x] += 1.0f; }
__global__ void gone(float* x) { x[threadIdx.x] = 0.0f; }
template __global__ void scale<2>(float*);
template <int kN>
__global__ void tile(float* x) { x[threadIdx.x] -= kN; }
template __global__ void tile<3>(float*);
CU
cat >"$tmp/new.cu" <<'CU'
template <int kN, bool kA = false, bool kB = false>
__global__ void scale(float* x) { x[threadIdx.x] *= kN; }
__global__ void add_one(float* x) { x[threadIdx.x] += 2.0f; }
__global__ void added(float* x) { x[threadIdx.x] = 3.0f; }
template __global__ void scale<2>(float*);
template <int kN, int kK = 64>
__global__ void tile(float* x) { x[threadIdx.x] -= kN; }
template __global__ void tile<3>(float*);
CU
for side in old new; do
  "$NVCC" -cubin -O3 -gencode=arch=compute_90a,code=sm_90a "$tmp/$side.cu" -o "$tmp/$side.cubin" ||
    fail "nvcc $side"
done
python3 "$script" "$tmp/old.cubin" "$tmp/new.cubin" >"$tmp/out" 2>&1
rc=$?
[[ $rc == 1 ]] || fail "a differing and a missing kernel: exit $rc, expected 1"
grep -qxF "kernels identical: 1; differing: 1; missing: 2; new: 2" "$tmp/out" || fail "summary: $(head -1 "$tmp/out")"
grep -qxF "MISSING: void tile<3>(float*)" "$tmp/out" || fail "tile<3> without --defaulted: not missing"
grep -qxF "DIFFERS: add_one(float*)" "$tmp/out" || fail "add_one not listed as differing"
grep -qxF "MISSING: gone(float*)" "$tmp/out" || fail "gone not listed as missing"
grep -qxF "new: added(float*)" "$tmp/out" || fail "added not listed as new"
python3 "$script" "$tmp/old.cubin" "$tmp/new.cubin" --defaulted 64 >"$tmp/out" 2>&1
grep -qxF "kernels identical: 2; differing: 1; missing: 1; new: 1" "$tmp/out" ||
  fail "--defaulted 64: $(head -1 "$tmp/out")"
python3 "$script" "$tmp/old.cubin" "$tmp/new.cubin" --defaulted 3 >"$tmp/out" 2>&1
grep -qxF "kernels identical: 1; differing: 1; missing: 2; new: 2" "$tmp/out" ||
  fail "--defaulted 3 (not the tail): $(head -1 "$tmp/out")"
python3 "$script" "$tmp/old.cubin" "$tmp/new.cubin" --defaulted "1, 2" >"$tmp/out" 2>&1
rc=$?
[[ $rc == 2 && $(wc -l <"$tmp/out") == 1 ]] || fail "bad --defaulted: exit $rc, $(wc -l <"$tmp/out") lines"
python3 "$script" "$tmp/old.cubin" "$tmp/old.cubin" >"$tmp/out" 2>&1 || fail "identical cubins: exit $?"
grep -qxF "kernels identical: 4; differing: 0; missing: 0; new: 0" "$tmp/out" || fail "self: $(head -1 "$tmp/out")"
echo "not an elf" >"$tmp/bad.cubin"
python3 "$script" "$tmp/old.cubin" "$tmp/bad.cubin" >"$tmp/out" 2>&1
rc=$?
[[ $rc == 2 && $(wc -l <"$tmp/out") == 1 ]] || fail "bad cubin: exit $rc, $(wc -l <"$tmp/out") lines"
python3 "$script" "$tmp/old.cubin" >"$tmp/out" 2>&1
[[ $? == 2 ]] || fail "one cubin: expected exit 2"
((failures == 0)) && echo "cubin_diff_test: all checks passed"
((failures == 0))
