"""lastwave from Python: GEMM schedule predictions, the `best` chooser, plans and simulated traces.

The same library the `lastwave` CLI runs (sim/api), through the extension module _lastwave: no
simulation or prediction logic lives in Python. Errors are one-line exceptions (ValueError for bad
input, with the CLI's message; TypeError for a wrong type); the GIL is released while simulating,
so threads run concurrently. See docs/PYTHON.md.

    >>> import lastwave
    >>> lastwave.best((4096, 4096, 4104), sms=132)
    >>> rows = lastwave.predict([(128, 4096, 4096)], schedules="dp,streamk,best")
"""

from __future__ import annotations

import warnings
from typing import Any, Iterable, List, Optional, Sequence, Union

from . import _args
from ._lastwave import GpuSpec, Model
from . import _lastwave
from ._records import BestPlan, Plan, PlanStep, PredictRow, Predictions

__all__ = [
    "BestPlan", "GpuSpec", "Model", "ModelWarning", "Plan", "PlanStep", "PredictRow",
    "Predictions", "best", "gpu_names", "load_model", "merge_traces", "model_names", "plan",
    "predict",
    "schedule_names", "trace",
]  # fmt: skip

# `lastwave predict`'s default --schedule.
DEFAULT_SCHEDULES = "dp,splitk:2,splitk:4,streamk,cutlass"


class ModelWarning(UserWarning):
    """A model's caveat the CLI prints on stderr: it extrapolates, or refused some rows."""


def load_model(name: str, params: Optional[dict] = None) -> Model:
    """A cost model, parsed and validated once, to pass as `model=` to many calls.

    name: a built-in model ("unit", "roofline", "calibrated"; lastwave.model_names()) or a fitted
    model file (configs/models/*.json). params: overrides {name: value} (like --param)."""
    return _lastwave.load_model(_args.text(name, "name"), _args.params(params))


def gpu_names() -> List[str]:
    """GPU presets (configs/gpus): a100, h100-sxm, ..., h200."""
    return GpuSpec.names()


def model_names() -> List[str]:
    """Built-in cost models."""
    return _lastwave.model_names()


def schedule_names() -> List[str]:
    """Schedule names (some take ':S' or ':G', e.g. splitk:4)."""
    return _lastwave.schedule_names()


def _request(shapes, schedules, sms, gpu, model, tile, cluster, reduction, top, strict):
    """The extension's positional arguments (shapes, schedules, gpu, model, tile, cluster,
    reduction, top, strict), checked and converted."""
    model_ = _args.model(model)
    return (
        _args.shapes(shapes),
        _args.schedules(schedules),
        _args.gpu(gpu, sms, model_),
        model_,
        _args.optional_names(tile, "tile"),
        _args.optional_names(cluster, "cluster"),
        _args.text(reduction, "reduction"),
        _args.optional_integer(top, "top"),
        _args.flag(strict, "strict"),
    )


def _warn(outcome: Any) -> None:
    for note in (outcome.extrapolation, outcome.extrapolated, outcome.refusals, outcome.best_skipped):
        if note:
            warnings.warn(note, ModelWarning, stacklevel=3)


def predict(
    shapes: Union[Sequence[int], Iterable[Sequence[int]]],
    schedules: Union[str, Iterable[str]] = DEFAULT_SCHEDULES,
    sms: Optional[int] = None,
    gpu: Union[str, GpuSpec, None] = "h200",
    model: Union[str, Model] = "unit",
    tile: Union[str, Iterable[str], None] = None,
    cluster: Union[str, Iterable[str], None] = None,
    reduction: str = "deterministic",
    top: Optional[int] = None,
    strict: bool = False,
) -> Predictions:
    """Predicted makespan of each schedule for each shape: `lastwave predict --format csv`'s rows.

    shapes: (m, n, k) or a list of them. schedules: "dp,streamk,best" or a list of names.
    sms: SM count (a partition of `gpu`; with gpu=None, of the model file's GPU).
    gpu: preset name or GpuSpec. model: name, *.json path or a Model from load_model().
    tile, cluster: the config of the schedules other than best; for best, the lists it searches.
    top: best's K fastest plans (rows with rank 1..K). strict: a refused row raises ValueError.
    Returns Predictions (a list of PredictRow; .to_csv(), .to_numpy(), .to_pandas()). A refused
    row, an extrapolating model file or a listed config best skips (the model cannot cost it) also
    raises a ModelWarning (the CLI's stderr line)."""
    outcome = _lastwave.predict(
        *_request(shapes, schedules, sms, gpu, model, tile, cluster, reduction, top, strict)
    )
    _warn(outcome)
    return Predictions([PredictRow(*row) for row in outcome.rows()], outcome)


def best(
    shape: Sequence[int],
    sms: Optional[int] = None,
    gpu: Union[str, GpuSpec, None] = "h200",
    model: Union[str, Model] = "unit",
    top: int = 1,
    tiles: Union[str, Iterable[str], None] = None,
    clusters: Union[str, Iterable[str], None] = None,
    reduction: str = "deterministic",
) -> List[BestPlan]:
    """The `top` fastest plans (tile x cluster x decomposition) for one shape, fastest first
    (`lastwave predict --schedule best --top K`). tiles / clusters restrict the search (default:
    every kernel tile, the clusters the model has parameters for)."""
    rows = predict(
        [_args.shape(shape)], "best", sms, gpu, model, tiles, clusters, reduction,
        _args.integer(top, "top"), False,
    )  # fmt: skip
    return [
        BestPlan(r.rank, r.tile, r.cluster, r.choice, r.makespan, rows.time_unit, r.efficiency,
                 r.status, r.reason)
        for r in rows
    ]  # fmt: skip


def plan(
    shape: Sequence[int],
    schedule: str,
    sms: Optional[int] = None,
    gpu: Union[str, GpuSpec, None] = "h200",
    tile: Optional[str] = None,
    reduction: str = "deterministic",
) -> Plan:
    """The plan of `schedule` for `shape`, CTA by CTA, segment by segment (`lastwave plan`)."""
    header, steps, csv = _lastwave.plan(
        _args.shape(shape),
        _args.text(schedule, "schedule"),
        _args.gpu(gpu, sms, None),
        None if tile is None else _args.text(tile, "tile"),
        _args.text(reduction, "reduction"),
    )
    return Plan(schedule=schedule, steps=[PlanStep(*s) for s in steps], csv=csv, **header)


def trace(
    shape: Sequence[int],
    schedule: str,
    sms: Optional[int] = None,
    gpu: Union[str, GpuSpec, None] = "h200",
    model: Union[str, Model] = "unit",
    tile: Union[str, Iterable[str], None] = None,
    cluster: Union[str, Iterable[str], None] = None,
    reduction: str = "deterministic",
) -> str:
    """The simulated timeline of one shape under one schedule as Chrome-trace / Perfetto JSON
    (what `lastwave predict --trace FILE` writes; open it in ui.perfetto.dev). A row the model
    refuses raises ValueError."""
    request = _request(
        [_args.shape(shape)], _args.text(schedule, "schedule"), sms, gpu, model, tile, cluster,
        reduction, None, True,
    )  # fmt: skip
    return _lastwave.trace(*request)


def merge_traces(sim: str, hw: str) -> str:
    """A simulated trace (trace()'s JSON text) and a measured one (lastwave-bench --trace's) side
    by side in one Chrome-trace document: what `lastwave trace --sim --hw --out` writes."""
    return _lastwave.merge_traces(_args.text(sim, "sim"), _args.text(hw, "hw"))
