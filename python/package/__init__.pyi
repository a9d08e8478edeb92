# Type stub of the `lastwave` package (python/package/__init__.py and the _lastwave extension).
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

Shape = Sequence[int]  # (m, n, k)

class GpuSpec:
    name: str
    label: str
    description: str
    sms: int
    chip_sms: int
    ctas_per_sm: int
    bf16_dense_tflops: float
    dram_tb_per_s: float
    l2_tb_per_s: float
    l2_mib: float
    sm_clock_mhz: float
    @staticmethod
    def preset(name: str, sms: Optional[int] = None) -> GpuSpec: ...
    @staticmethod
    def names() -> List[str]: ...
    def with_sms(self, sms: int) -> GpuSpec: ...

class Model:
    name: str
    params: Dict[str, float]
    kind: str
    gpu: str
    undetermined: List[str]

class ModelWarning(UserWarning): ...

class PredictRow:
    m: int
    n: int
    k: int
    sms: int
    schedule: str
    choice: str
    tiles: int
    iters_per_tile: int
    sk_tiles: int
    sk_units: int
    grid: int
    makespan: Optional[float]
    ideal: Optional[float]
    efficiency: Optional[float]
    makespan_factor: Optional[float]
    makespan_us: Optional[float]
    tile: str
    cluster: str
    rank: int
    status: str
    reason: str
    extrapolated: Optional[bool]
    extrapolation: str
    p10_us: Optional[float]
    p90_us: Optional[float]

class Predictions(List[PredictRow]):
    time_unit: str
    refusals: str
    extrapolation: str
    extrapolated: str
    best_skipped: str
    columns: List[str]
    def to_csv(self) -> str: ...
    def to_numpy(self) -> Any: ...
    def to_pandas(self) -> Any: ...

class BestPlan:
    rank: int
    tile: str
    cluster: str
    decomposition: str
    time: Optional[float]
    time_unit: str
    efficiency: Optional[float]
    status: str
    reason: str

class PlanStep:
    launch: int
    cta: int
    seq: int
    work_id: int
    tile: int
    tile_m: int
    tile_n: int
    k_begin: int
    k_end: int
    role: str
    slot: int
    load_slots: int
    wait_value: int
    signal: int

class Plan:
    schedule: str
    choice: str
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
    csv: str
    def cta(self, index: int, launch: int = 0) -> List[PlanStep]: ...
    def to_csv(self) -> str: ...

DEFAULT_SCHEDULES: str

def load_model(name: str, params: Optional[Dict[str, float]] = None) -> Model: ...
def gpu_names() -> List[str]: ...
def model_names() -> List[str]: ...
def schedule_names() -> List[str]: ...
def predict(
    shapes: Union[Shape, Iterable[Shape]],
    schedules: Union[str, Iterable[str]] = ...,
    sms: Optional[int] = None,
    gpu: Union[str, GpuSpec, None] = "h200",
    model: Union[str, Model] = "unit",
    tile: Union[str, Iterable[str], None] = None,
    cluster: Union[str, Iterable[str], None] = None,
    reduction: str = "deterministic",
    top: Optional[int] = None,
    strict: bool = False,
) -> Predictions: ...
def best(
    shape: Shape,
    sms: Optional[int] = None,
    gpu: Union[str, GpuSpec, None] = "h200",
    model: Union[str, Model] = "unit",
    top: int = 1,
    tiles: Union[str, Iterable[str], None] = None,
    clusters: Union[str, Iterable[str], None] = None,
    reduction: str = "deterministic",
) -> List[BestPlan]: ...
def plan(
    shape: Shape,
    schedule: str,
    sms: Optional[int] = None,
    gpu: Union[str, GpuSpec, None] = "h200",
    tile: Optional[str] = None,
    reduction: str = "deterministic",
) -> Plan: ...
def trace(
    shape: Shape,
    schedule: str,
    sms: Optional[int] = None,
    gpu: Union[str, GpuSpec, None] = "h200",
    model: Union[str, Model] = "unit",
    tile: Union[str, Iterable[str], None] = None,
    cluster: Union[str, Iterable[str], None] = None,
    reduction: str = "deterministic",
) -> str: ...
def merge_traces(sim: str, hw: str) -> str: ...
