"""Per-call overhead of lastwave.predict over the C++ call it wraps (docs/PYTHON.md): times
lastwave.predict on one shape, and the same sim/api call from C++ (predict_call_bench), and prints
both and their difference in microseconds.

    bazel build -c opt --symlink_prefix=bazel-opt- //python:lastwave //python/bench:predict_call_bench
    PYTHONPATH=bazel-opt-bin/python python3 python/bench/overhead.py \
        bazel-opt-bin/python/bench/predict_call_bench
"""

import re
import subprocess
import sys
import time

import lastwave

SHAPE = (4096, 4096, 4096)
CALLS = 5000
# Rounds of (C++, Python, Python with a model name) run back to back, the best of each kept: the
# least disturbed runs on a shared machine, each kind as exposed to the load as the others.
ROUNDS = 9
MICROS = 1e6


def python_us(schedules: str, model) -> float:
    start = time.perf_counter()
    for _ in range(CALLS):
        lastwave.predict(SHAPE, schedules=schedules, model=model)
    return (time.perf_counter() - start) * MICROS / CALLS


def cpp_us(binary: str, schedules: str) -> float:
    out = subprocess.run([binary, *map(str, SHAPE), schedules, str(CALLS)],
                         capture_output=True, text=True, check=True).stdout
    return float(re.match(r"([0-9.]+) us/call", out).group(1))


def main() -> None:
    binary = sys.argv[1]
    unit = lastwave.load_model("unit")
    for schedules in ("dp", "streamk"):
        c = p = s = float("inf")
        for _ in range(ROUNDS):
            c = min(c, cpp_us(binary, schedules))
            p = min(p, python_us(schedules, unit))
            s = min(s, python_us(schedules, "unit"))
        print(f"{SHAPE} {schedules:8s} C++ {c:8.2f} us  Python {p:8.2f} us (model=Model)  "
              f"{s:8.2f} us (model='unit')  overhead {p - c:6.2f} / {s - c:6.2f} us")


if __name__ == "__main__":
    main()
