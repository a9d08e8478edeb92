"""Python and the CLI give byte-identical predictions on a 1,000-shape corpus. The CLI binary (a
separate process reading a shapes file) is the independent path; the module's rows are compared
twice: as its CSV view, and formatted here, field by field, from the records' values."""

import contextlib
import json
import math
import random

import pytest

import lastwave
from conftest import R17

CORPUS_SIZE = 1000
SEED = 32
MAX_DIM = 16384
ALIGNED_SHARE = 0.9  # shapes whose n and k are multiples of 8, as real GEMMs mostly are
ALIGNMENT = 8
SCHEDULES = "dp,splitk:4,streamk,cutlass,two-tile,best"


def corpus(count=CORPUS_SIZE, seed=SEED):
    """Log-uniform sizes in [1, MAX_DIM] (n, k mostly multiples of 8), drawn deterministically."""
    rng = random.Random(seed)

    def dim(align):
        d = max(1, round(math.exp(rng.uniform(0, math.log(MAX_DIM)))))
        return max(ALIGNMENT, d - d % ALIGNMENT) if align else d

    shapes = []
    for _ in range(count):
        align = rng.random() < ALIGNED_SHARE
        shapes.append((dim(False), dim(align), dim(align)))
    return shapes


def write_shapes(path, shapes):
    path.write_text("m,n,k\n" + "".join(f"{m},{n},{k}\n" for m, n, k in shapes))


def field(value, fmt, status):
    return status if value is None else fmt % value


def csv_from_records(rows):
    """The CSV the CLI prints, written from the records' values (predict_csv's rules)."""
    lines = [",".join(rows.columns)]
    for r in rows:
        cells = [r.m, r.n, r.k, r.sms, r.schedule, r.choice, r.tiles, r.iters_per_tile,
                 r.sk_tiles, r.sk_units, r.grid, field(r.makespan, "%.4f", r.status),
                 field(r.ideal, "%.4f", r.status),
                 "0" if r.status == "deadlock" else field(r.efficiency, "%.4f", r.status),
                 field(r.makespan_factor, "%.6f", r.status)]  # fmt: skip
        if "makespan_us" in rows.columns:
            cells.append(field(r.makespan_us, "%.3f", r.status))
        cells += [r.tile, r.cluster]
        if "rank" in rows.columns:
            cells.append(r.rank)
        reason = "".join(";" if c in ',\n"' else c for c in r.reason)
        cells += [r.status, reason]
        if r.extrapolated is None:
            cells += ["", "", "", ""]
        else:
            why = "".join(";" if c in ',\n"' else c for c in r.extrapolation)
            cells += ["true" if r.extrapolated else "false", why,
                      field(r.p10_us, "%.3f", ""), field(r.p90_us, "%.3f", "")]  # fmt: skip
        lines.append(",".join(str(c) for c in cells))
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def shapes_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "shapes.csv"
    write_shapes(path, corpus())
    return path


@pytest.fixture(scope="module")
def r17_store_undetermined(tmp_path_factory):
    """r17 as if its calibration had not determined store_us: rows that store partials refused."""
    with open(R17) as f:
        model = json.load(f)
    model["undetermined"] = ["store_us"]
    path = tmp_path_factory.mktemp("model") / "r17-store-undetermined.json"
    path.write_text(json.dumps(model))
    return str(path)


@pytest.mark.parametrize(
    "model, sms, top",
    [("unit", None, None), (R17, None, None), (R17, 100, 3), ("roofline", 64, None),
     ("undetermined", None, None)],  # fmt: skip
)
def test_corpus_identical(shapes_file, cli, r17_store_undetermined, model, sms, top):
    fitted = model != "unit" and model != "roofline"
    if model == "undetermined":
        model = r17_store_undetermined
    args = ["predict", "--gpu", "h200", "--shapes", str(shapes_file), "--schedule", SCHEDULES,
            "--model", model, "--format", "csv", "--quiet"]  # fmt: skip
    if sms is not None:
        args += ["--sms", str(sms)]
    if top is not None:
        args += ["--top", str(top)]
    expected = cli(*args)
    with pytest.warns(lastwave.ModelWarning) if fitted else contextlib.nullcontext():
        rows = lastwave.predict(corpus(), schedules=SCHEDULES, sms=sms, model=model, top=top)
    assert rows.to_csv() == expected
    assert csv_from_records(rows) == expected
    statuses = {r.status for r in rows}
    # The corpus exercises answered rows, and under the undetermined store_us rows it refuses.
    assert "ok" in statuses and (model != r17_store_undetermined or "refused" in statuses)


def test_corpus_is_deterministic():
    assert corpus() == corpus() and len(set(corpus())) > CORPUS_SIZE * 0.98
