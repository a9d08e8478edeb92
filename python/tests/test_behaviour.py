"""predict / best / plan / trace against values with an independent source: the seed script's
printed numbers (tests/golden/schedule_sim_seed.txt), the documented examples (README.md,
docs/TOUR.md), the CLI, and invariants every plan must keep."""

import collections
import json
import threading
import time

import pytest

import lastwave
from conftest import R17

# tests/golden/schedule_sim_seed.txt (the tutorial's schedule_sim.py output, unit model).
SEED_CASES = [
    ("h100-sxm", (1536, 1536, 4096), {"dp": 132.0, "splitk:2": 106.0, "streamk": 78.0,
                                      "cutlass-seed": 78.0}),
    ("h100-sxm", (128, 4096, 4096), {"dp": 66.0, "splitk:4": 26.0, "streamk": 29.0}),
    ("b200", (3840, 3840, 4096), {"dp": 462.0, "streamk": 408.0}),
    ("h100-sxm", (4096, 4096, 4096), {"dp": 528.0, "streamk": 517.0, "cutlass-seed": 528.0}),
]  # fmt: skip

LONG_CALL_S = 0.2  # the GIL test's call must take longer than this (s) to tell a held GIL apart
MAX_GIL_SHAPES = 1 << 14  # ... and grows its shape list up to this many shapes to get there


@pytest.mark.parametrize("gpu, shape, expected", SEED_CASES)
def test_seed_makespans(gpu, shape, expected):
    rows = lastwave.predict(shape, schedules=list(expected), gpu=gpu)
    assert {r.schedule: r.makespan for r in rows} == expected
    assert rows.time_unit == "iter" and all(r.status == "ok" for r in rows)


def test_best_readme_decode_projection():
    """README: 128x4096x4096 on h200, unit model: 32x128 tiles (swapped), 4 x 32 = 128 of them in one
    wave, each 64 k-tiles of 32x128/128x128 = 0.25 plus the epilogue's 2: dp in 18.0 (64x64 ties:
    2 x 64 tiles of the same volume; the kernels' list has 32x128 first)."""
    (plan,) = lastwave.best((128, 4096, 4096))
    assert (plan.rank, plan.decomposition, plan.tile, plan.cluster, plan.time) == (
        1, "dp", "32x128x64", "1x1", 18.0)  # fmt: skip


def test_best_top_readme_r17():
    """docs/TOUR.md: r17 on 16x8192x4096, the five fastest plans and their times (us)."""
    model = lastwave.load_model(R17)
    plans = lastwave.best((16, 8192, 4096), model=model, top=5)
    got = [(p.rank, p.decomposition, p.tile, round(p.time, 1)) for p in plans]
    assert got == [
        (1, "dp", "64x128x64", 29.5),
        (2, "splitk:2", "64x128x64", 30.4),
        (3, "splitk:2", "64x256x64", 31.5),
        (4, "streamk", "64x128x64", 31.6),
        (5, "splitk:3", "64x256x64", 32.5),
    ]
    assert all(p.time_unit == "us" for p in plans)
    times = [p.time for p in plans]
    assert times == sorted(times)


def test_best_is_the_fastest_of_its_candidates():
    """No single config (tile, decomposition) the search covers beats best's pick."""
    shape = (1000, 3000, 5000)
    (pick,) = lastwave.best(shape, tiles="128x128x64,64x128x64")
    for tile in ("128x128x64", "64x128x64"):
        rows = lastwave.predict(shape, schedules="dp,splitk:2,splitk:4,streamk,cutlass",
                                tile=tile)
        assert all(r.makespan >= pick.time for r in rows)


def test_deadlock_is_a_row():
    """docs/TOUR.md: a Stream-K grid of 3 units on one SM can never finish."""
    (row,) = lastwave.predict((256, 128, 640), schedules="streamk:3", sms=1, gpu=None)
    assert (row.status, row.makespan, row.efficiency) == ("deadlock", None, None)


def test_plan_readme_cutlass_streamk():
    """docs/TOUR.md: CTA 0 of CUTLASS's forced Stream-K walk of 4096^3 on h200."""
    p = lastwave.plan((4096, 4096, 4096), "cutlass-streamk")
    assert (p.choice, p.tiles, p.tiles_m, p.tiles_n, p.k_tiles, p.grid, p.persistent,
            p.split_tiles, p.split_units, p.groups, p.workspace_slots) == (
        "StreamK", 1024, 32, 32, 64, 132, True, 232, 132, 4, 232)  # fmt: skip
    first, second, third = p.cta(0)[:3]
    assert (first.tile, first.tile_m, first.tile_n, first.k_begin, first.k_end, first.role,
            first.slot, first.signal) == (4, 0, 4, 0, 49, "store_partial", 4, 49)  # fmt: skip
    assert (second.tile, second.role, second.k_end) == (0, "whole", 64)
    assert (third.tile, third.tile_m, third.tile_n) == (232, 7, 8)


@pytest.mark.parametrize("schedule", ["dp", "splitk:3", "splitk-sep:3", "streamk", "cutlass",
                                      "two-tile"])
def test_plan_covers_every_k_iteration_once(schedule):
    """Each tile's MAC iterations are walked exactly once across the GEMM launch's CTAs."""
    p = lastwave.plan((1000, 3000, 5000), schedule, sms=100)
    covered = collections.Counter()
    for s in p.steps:
        if s.launch == 0:
            covered[s.tile] += s.k_end - s.k_begin
    assert covered == {t: p.k_tiles for t in range(p.tiles)}


@pytest.mark.parametrize("schedule, tile", [("cutlass-streamk", None), ("splitk-sep:3", None),
                                            ("streamk", "64x128x64")])
def test_plan_csv_is_the_clis(cli, schedule, tile):
    args = ["plan", "--gpu", "h200", "--sms", "100", "--m", "1000", "--n", "3000", "--k",
            "5000", "--schedule", schedule, "--format", "csv"]  # fmt: skip
    if tile:
        args += ["--tile", tile]
    p = lastwave.plan((1000, 3000, 5000), schedule, sms=100, tile=tile)
    assert p.to_csv() == cli(*args)
    assert len(p.steps) == p.to_csv().count("\n") - 1


@pytest.mark.parametrize("schedule", ["streamk", "best"])
def test_trace_is_the_clis(cli, tmp_path, schedule):
    model = "configs/models/h200-bf16-128x128x64.json"
    out = tmp_path / "sim.json"
    cli("predict", "--model", model, "--gpu", "h200", "--m", "1000", "--n", "3000", "--k",
        "5000", "--schedule", schedule, "--tile", "128x128x64", "--trace", str(out))  # fmt: skip
    text = lastwave.trace((1000, 3000, 5000), schedule, model=model, tile="128x128x64")
    assert text == out.read_text()
    doc = json.loads(text)
    assert doc["traceEvents"] and doc["lastwave"]["source"] == "sim"


def test_merge_traces_is_the_clis(cli, tmp_path):
    """docs/TOUR.md: the simulated streamk timeline beside the H200's measured one
    (`lastwave trace`)."""
    hw = "configs/measurements/traces/h200_1000x3000x5000_sms132_streamk.json"
    sim = lastwave.trace((1000, 3000, 5000), "streamk", sms=132,
                         model="configs/models/h200-bf16-128x128x64.json", tile="128x128x64")
    (tmp_path / "sim.json").write_text(sim)
    out = tmp_path / "both.json"
    cli("trace", "--sim", str(tmp_path / "sim.json"), "--hw", hw, "--out", str(out))
    with open(hw) as f:
        merged = lastwave.merge_traces(sim, f.read())
    assert merged == out.read_text()
    assert {e["pid"] for e in json.loads(merged)["traceEvents"]} == {0, 1}
    with pytest.raises(ValueError) as excinfo:
        lastwave.merge_traces(sim, sim)  # a simulated trace where the measured one belongs
    assert "\n" not in str(excinfo.value)


def test_model_warnings():
    """Outside r17's training rows (8 SMs): the CLI's warning line, as a ModelWarning."""
    with pytest.warns(lastwave.ModelWarning, match="8 SMs lie outside"):
        rows = lastwave.predict((4096, 4096, 4096), schedules="dp", sms=8, model=R17)
    assert "8 SMs lie outside" in rows.extrapolation


def test_best_skips_tiles_the_model_cannot_cost(tmp_path):
    """A calibrated file from before the narrow tiles (no "tiles" list): best skips a listed 64x32
    with a ModelWarning (the CLI's note) and picks among the rest; 64x32 alone is a ValueError."""
    path = tmp_path / "legacy.json"
    path.write_text('{"model": "calibrated", "params": {}}\n')
    with pytest.warns(lastwave.ModelWarning, match="best skips 1 of the 2 listed configs"):
        (plan,) = lastwave.best((16, 4096, 4096), model=str(path), tiles=["64x32", "128x128"],
                                clusters="1x1")  # fmt: skip
    assert plan.tile == "128x128x64"
    with pytest.raises(ValueError, match="no measurement of tile 64x32x64"):
        lastwave.best((16, 4096, 4096), model=str(path), tiles="64x32", clusters="1x1")


def test_sms_alone_uses_the_model_files_gpu():
    """gpu=None, sms=N with r17: a partition of the h200 it was measured on (CLI's --sms)."""
    a = lastwave.predict((4096, 4096, 4096), schedules="dp", gpu=None, sms=100, model=R17)
    b = lastwave.predict((4096, 4096, 4096), schedules="dp", gpu="h200", sms=100, model=R17)
    assert a[0].makespan == b[0].makespan and a[0].sms == 100


def test_gpu_spec():
    h200 = lastwave.GpuSpec.preset("h200")
    assert h200.sms == 132 and "h200" in lastwave.gpu_names()
    part = h200.with_sms(100)
    assert (part.sms, part.chip_sms) == (100, 132)
    a = lastwave.predict((4096, 4096, 4096), schedules="dp", gpu=part, model="roofline")
    b = lastwave.predict((4096, 4096, 4096), schedules="dp", sms=100, model="roofline")
    assert a == b


def test_records_views():
    rows = lastwave.predict([(128, 4096, 4096), (4096, 4096, 4096)], schedules="dp,best",
                            model=R17, top=2)
    assert rows.columns[-7:] == ["rank", "status", "reason", "extrapolated", "extrapolation",
                                 "p10_us", "p90_us"] and "makespan_us" in rows.columns  # fmt: skip
    np = pytest.importorskip("numpy")
    array = rows.to_numpy()
    assert array.dtype.names == tuple(rows.columns) and len(array) == len(rows)
    assert np.allclose(array["makespan"], [r.makespan for r in rows])


def test_concurrent_calls_match_serial():
    """Threads (the GIL released while simulating) get the same rows as serial calls."""
    shapes = [(m, 4096, 4096) for m in (128, 512, 1000, 2048, 4096, 8192)]
    serial = [lastwave.predict(s, schedules="dp,streamk,best") for s in shapes]
    results = [None] * len(shapes)

    def work(i):
        results[i] = lastwave.predict(shapes[i], schedules="dp,streamk,best")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(shapes))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == serial


def test_gil_is_released_while_simulating():
    """While one thread simulates a long call, this thread keeps running Python: the longest pause
    between its loop iterations stays far below the call's length (held GIL: the whole call)."""
    count, alone = 128, 0.0
    while alone <= LONG_CALL_S and count <= MAX_GIL_SHAPES:  # long enough to tell, however fast
        shapes = [(m, 8192, 8192) for m in range(4096, 4096 + count)]
        start = time.perf_counter()
        lastwave.predict(shapes, schedules="best")
        alone = time.perf_counter() - start
        count *= 2
    worker = threading.Thread(target=lastwave.predict, args=(shapes,), kwargs={"schedules": "best"})
    last, longest = time.perf_counter(), 0.0  # before start(): a pause may begin at once
    worker.start()
    while worker.is_alive():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    longest = max(longest, time.perf_counter() - last)  # a pause that lasted to the call's end
    worker.join()
    assert alone > LONG_CALL_S, "the call is too short to tell"
    assert longest < alone / 2


def test_extrapolation_flag_and_interval():
    """r17's coverage: 4096^3 is inside its training shapes, its dp interval r17's validation band
    (p10 0.937819, p90 1.040412) times the makespan; K = 8 (trained K starts at 128) is flagged."""
    with pytest.warns(lastwave.ModelWarning, match="1 of 2 rows extrapolated"):
        inside, far = lastwave.predict([(4096, 4096, 4096), (4096, 4096, 8)], schedules="dp",
                                       model=R17)  # fmt: skip
    assert inside.extrapolated is False and inside.extrapolation == ""
    assert inside.p10_us == pytest.approx(inside.makespan * 0.937819, rel=1e-5)
    assert inside.p90_us == pytest.approx(inside.makespan * 1.040412, rel=1e-5)
    assert far.extrapolated is True and "mostly k: 8 is" in far.extrapolation
    assert far.p10_us < far.makespan < far.p90_us
    unit = lastwave.predict((4096, 4096, 8), schedules="dp")[0]
    assert (unit.extrapolated, unit.extrapolation, unit.p10_us, unit.p90_us) == (None, "", None, None)
