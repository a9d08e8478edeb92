"""The records the public functions return: PredictRow (one row of `predict --format csv`),
Predictions (the rows, with CSV / NumPy / pandas views), BestPlan, PlanStep and Plan."""

from __future__ import annotations

from dataclasses import astuple, dataclass, fields
from typing import Any, List, Optional

# The columns every predict CSV has, before the optional makespan_us; then tile, cluster, the
# optional rank, status, reason and COVERAGE_COLUMNS (sim/api/predict_run.cpp predict_csv).
LEADING_COLUMNS = (
    "m", "n", "k", "sms", "schedule", "choice", "tiles", "iters_per_tile", "sk_tiles",
    "sk_units", "grid", "makespan", "ideal", "efficiency", "makespan_factor",
)  # fmt: skip
# A fitted model file's coverage (docs/CALIBRATION.md, "Where the model is right"); None / '' for
# models without it.
COVERAGE_COLUMNS = ("extrapolated", "extrapolation", "p10_us", "p90_us")


@dataclass(frozen=True, slots=True)
class PredictRow:
    """One (shape, schedule) prediction: the columns of `lastwave predict --format csv`.

    Times are in the model's time unit (Predictions.time_unit: "us" or "iter"). A number the CSV
    replaces by the row's status (a deadlock's makespan, a refused row's times) is None."""

    m: int
    n: int
    k: int
    sms: int
    schedule: str  # as requested ("best" stays "best")
    choice: str  # what the heuristic or best picked
    tiles: int
    iters_per_tile: int
    sk_tiles: int
    sk_units: int
    grid: int
    makespan: Optional[float]
    ideal: Optional[float]
    efficiency: Optional[float]
    makespan_factor: Optional[float]
    makespan_us: Optional[float]  # the makespan when the unit is us (a physical model)
    tile: str
    cluster: str
    rank: int  # best's rank with top=K (1 = fastest); 0 otherwise
    status: str  # ok | deadlock | refused
    reason: str  # why refused ('' otherwise)
    extrapolated: Optional[bool]  # farther from the training shapes than the file's threshold
    extrapolation: str  # why ('' unless extrapolated)
    p10_us: Optional[float]  # the row's interval of the measured time (None: no time/coverage)
    p90_us: Optional[float]


ROW_FIELDS = tuple(f.name for f in fields(PredictRow))


class Predictions(list):
    """A list of PredictRow with the CSV's column list and views as CSV text, a NumPy structured
    array and a pandas DataFrame (when those packages are installed)."""

    def __init__(self, rows: List[PredictRow], outcome: Any):
        super().__init__(rows)
        self._outcome = outcome

    @property
    def time_unit(self) -> str:
        """The model's time unit: "us" (a physical model) or "iter" (MAC iterations)."""
        return self._outcome.time_unit

    @property
    def refusals(self) -> str:
        """One line on the refused rows (the CLI's stderr summary), or ''."""
        return self._outcome.refusals

    @property
    def extrapolation(self) -> str:
        """What a fitted model file extrapolates to (the CLI's warning), or ''."""
        return self._outcome.extrapolation

    @property
    def extrapolated(self) -> str:
        """"N of M rows extrapolated ..." (the CLI's stderr summary), or ''."""
        return self._outcome.extrapolated

    @property
    def best_skipped(self) -> str:
        """The listed configs best skips because the model cannot cost them (the CLI's note), or ''."""
        return self._outcome.best_skipped

    @property
    def columns(self) -> List[str]:
        """The CSV's columns, in order."""
        return (
            list(LEADING_COLUMNS)
            + (["makespan_us"] if self._outcome.physical else [])
            + ["tile", "cluster"]
            + (["rank"] if self._outcome.ranked else [])
            + ["status", "reason"]
            + list(COVERAGE_COLUMNS)
        )

    def to_csv(self) -> str:
        """Exactly what `lastwave predict --format csv` prints for the same arguments."""
        return self._outcome.csv()

    def to_numpy(self) -> Any:
        """A NumPy structured array with the CSV's columns (None -> NaN); needs numpy."""
        import numpy as np

        kinds = {f.name: f.type for f in fields(PredictRow)}
        dtype = []
        for c in self.columns:
            if kinds[c] == "int":
                dtype.append((c, np.int64))
            elif kinds[c] == "str":
                width = max([len(getattr(r, c)) for r in self] + [1])
                dtype.append((c, f"U{width}"))
            else:
                dtype.append((c, np.float64))
        nan = float("nan")
        values = [
            tuple(nan if getattr(r, c) is None else getattr(r, c) for c in self.columns)
            for r in self
        ]
        return np.array(values, dtype=dtype)

    def to_pandas(self) -> Any:
        """A pandas DataFrame with the CSV's columns; needs pandas."""
        import pandas as pd

        return pd.DataFrame([astuple(r) for r in self], columns=ROW_FIELDS)[self.columns]


@dataclass(frozen=True, slots=True)
class BestPlan:
    """One of best's fastest plans: kernel config (tile, cluster) x decomposition, its time."""

    rank: int  # 1 = the fastest; 0 when every candidate deadlocks
    tile: str  # CTA tile MxNxK
    cluster: str  # CTA cluster MxN
    decomposition: str  # dp, splitk:S, streamk, cutlass, two-tile
    time: Optional[float]  # predicted makespan in time_unit (None unless status is ok)
    time_unit: str
    efficiency: Optional[float]
    status: str
    reason: str

    def __repr__(self) -> str:
        shown = "none" if self.time is None else f"{self.time:.1f} {self.time_unit}"
        extra = "" if self.status == "ok" else f", status={self.status!r}"
        return (
            f"BestPlan(#{self.rank} {self.decomposition} {self.tile} {self.cluster}: {shown}"
            f"{extra})"
        )


@dataclass(frozen=True, slots=True)
class PlanStep:
    """One segment of a plan: the columns of `lastwave plan --format csv`."""

    launch: int  # 0: the GEMM launch; 1: the separate reduction launch
    cta: int
    seq: int  # position in the CTA's walk
    work_id: int
    tile: int
    tile_m: int
    tile_n: int
    k_begin: int
    k_end: int
    role: str  # whole | store_partial | ... (trace role names)
    slot: int
    load_slots: int
    wait_value: int
    signal: int


@dataclass(frozen=True)
class Plan:
    """A schedule's plan for one shape, CTA by CTA, segment by segment (`lastwave plan`)."""

    schedule: str
    choice: str  # DataParallel, SplitK(s=4), StreamK
    tiles: int
    tiles_m: int
    tiles_n: int
    k_tiles: int
    grid: int
    persistent: bool
    split_tiles: int
    split_units: int
    groups: int
    workspace_slots: int
    steps: List[PlanStep]
    csv: str  # `lastwave plan --format csv`

    def cta(self, index: int, launch: int = 0) -> List[PlanStep]:
        """The segments CTA `index` of `launch` runs, in order."""
        return [s for s in self.steps if s.cta == index and s.launch == launch]

    def to_csv(self) -> str:
        return self.csv

    def __repr__(self) -> str:
        return (
            f"Plan({self.schedule} -> {self.choice}: {self.tiles} tiles, grid {self.grid}, "
            f"{len(self.steps)} segments)"
        )
