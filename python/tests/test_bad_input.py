"""Bad input raises a one-line exception (ValueError for a bad value, with the CLI's message where
the CLI has one; TypeError for a wrong type), never a crash."""

import json

import pytest

import lastwave

SHAPE = (256, 256, 256)


def one_line(excinfo) -> str:
    text = str(excinfo.value)
    assert text and "\n" not in text, f"not one line: {text!r}"
    return text


# (call, exception, a fragment of its message)
CASES = {
    "negative m": (lambda: lastwave.predict((-1, 4, 4)), ValueError, "-1"),
    "zero k": (lambda: lastwave.best((4, 4, 0)), ValueError, "0"),
    "overflowing product": (lambda: lastwave.predict((2**40, 2**40, 2**40)), ValueError, ""),
    "size beyond 64 bits": (lambda: lastwave.predict((2**64, 4, 4)), ValueError, "64 bits"),
    "two sizes": (lambda: lastwave.predict((4, 4)), ValueError, "3 sizes"),
    "str shape": (lambda: lastwave.predict("4096x4096x4096"), TypeError, "shapes"),
    "float size": (lambda: lastwave.predict((4.5, 4, 4)), TypeError, "integer"),
    "bool size": (lambda: lastwave.best((True, 4, 4)), TypeError, "integer"),
    "no shapes": (lambda: lastwave.predict([]), ValueError, "no shapes"),
    "unknown schedule": (lambda: lastwave.predict(SHAPE, schedules="fastest"), ValueError,
                         "unknown schedule 'fastest'"),
    "bad split count": (lambda: lastwave.predict(SHAPE, schedules="splitk:0"), ValueError,
                        "splitk:0"),
    "empty schedule item": (lambda: lastwave.predict(SHAPE, schedules="dp,,streamk"),
                            ValueError, ""),
    "schedule list of ints": (lambda: lastwave.predict(SHAPE, schedules=[1, 2]), TypeError,
                              "schedules"),
    "unknown gpu": (lambda: lastwave.predict(SHAPE, gpu="h9000"), ValueError, "h9000"),
    "gpu of wrong type": (lambda: lastwave.predict(SHAPE, gpu=200), TypeError, "gpu"),
    "too many sms": (lambda: lastwave.predict(SHAPE, sms=500), ValueError, "exceeds"),
    "zero sms": (lambda: lastwave.predict(SHAPE, sms=0, gpu=None), ValueError, ""),
    "sms as str": (lambda: lastwave.predict(SHAPE, sms="132"), TypeError, "sms"),
    "unknown model": (lambda: lastwave.predict(SHAPE, model="oracle"), ValueError, "oracle"),
    "missing model file": (lambda: lastwave.load_model("/nonexistent/model.json"), ValueError,
                           "/nonexistent/model.json"),
    "model of wrong type": (lambda: lastwave.predict(SHAPE, model=3), TypeError, "model"),
    "unknown parameter": (lambda: lastwave.load_model("unit", {"warp_speed": 1.0}), ValueError,
                          "warp_speed"),
    "parameter out of range": (lambda: lastwave.load_model("unit", {"mac": -1.0}),
                               ValueError, "mac"),
    "parameter of wrong type": (lambda: lastwave.load_model("unit", {"mac": "1"}),
                                TypeError, "mac"),
    "bad tile": (lambda: lastwave.predict(SHAPE, schedules="dp", tile="128x128"), ValueError,
                 "128x128"),
    "tile list for dp": (lambda: lastwave.predict(SHAPE, schedules="dp",
                                                  tile="128x128x64,64x128x64"), ValueError,
                         "lists several"),
    "unknown reduction": (lambda: lastwave.predict(SHAPE, reduction="sloppy"), ValueError,
                          "sloppy"),
    "top zero": (lambda: lastwave.best(SHAPE, top=0), ValueError, "--top must be >= 1"),
    "top without best": (lambda: lastwave.predict(SHAPE, schedules="dp", top=2), ValueError,
                         "no best"),
    "plan of best": (lambda: lastwave.plan(SHAPE, "best"), ValueError, "not a plan"),
    "plan of unknown schedule": (lambda: lastwave.plan(SHAPE, "zigzag"), ValueError, "zigzag"),
    "plan too long to list": (lambda: lastwave.plan((10**10, 16, 16), "dp"), ValueError,
                              "more than 1048576 segments"),
    "sms beyond any GPU": (lambda: lastwave.predict(SHAPE, sms=10**8, gpu=None), ValueError,
                           "sms must be <= 100000"),
    "trace of two shapes": (lambda: lastwave.trace([SHAPE, SHAPE], "dp"), ValueError,
                            "3 sizes"),
}


def test_strict_refusal(tmp_path):
    """strict=True: a row the model cannot cost (a parameter its calibration did not determine
    moves it) raises one line naming the parameter; without it the row is refused and warned."""
    path = tmp_path / "undetermined.json"
    path.write_text(json.dumps({"model": "calibrated", "params": {"store_us": 3.0},
                                "undetermined": ["store_us"]}))  # fmt: skip
    with pytest.raises(ValueError) as excinfo:
        lastwave.predict((512, 512, 1001), schedules="splitk:2", model=str(path), strict=True)
    assert "store_us" in one_line(excinfo)
    with pytest.warns(lastwave.ModelWarning, match="1 of 1 rows refused"):
        rows = lastwave.predict((512, 512, 1001), schedules="splitk:2", model=str(path))
    assert [r.status for r in rows] == ["refused"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_raises_one_line(name):
    call, kind, fragment = CASES[name]
    with pytest.raises(kind) as excinfo:
        call()
    assert fragment in one_line(excinfo)


def test_broken_model_files(tmp_path):
    """Malformed JSON, a missing field, a value out of range: one line naming the file."""
    cases = {
        "truncated.json": '{"model": "calibrated", "params": {',
        "no_model.json": '{"params": {}}',
        "bad_value.json": json.dumps({"model": "unit", "params": {"mac": -5}}),
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(ValueError) as excinfo:
            lastwave.load_model(str(path))
        assert name in one_line(excinfo)


@pytest.mark.parametrize(
    "kwargs, cli_args",
    [
        (dict(shapes=(-1, 4, 4)), ["--m", "-1", "--n", "4", "--k", "4"]),
        (dict(shapes=SHAPE, schedules="fastest"), ["--m", "256", "--n", "256", "--k", "256",
                                                   "--schedule", "fastest"]),
        (dict(shapes=SHAPE, gpu="h9000"), ["--gpu", "h9000", "--m", "256", "--n", "256",
                                           "--k", "256"]),
        (dict(shapes=SHAPE, model="oracle"), ["--m", "256", "--n", "256", "--k", "256",
                                              "--model", "oracle"]),
    ],
)
def test_messages_are_the_clis(kwargs, cli_args, cli_error):
    """The module raises the message the CLI prints after 'lastwave predict: error: '."""
    args = cli_args if "--gpu" in cli_args else ["--gpu", "h200", *cli_args]
    with pytest.raises(ValueError) as excinfo:
        lastwave.predict(**kwargs)
    assert one_line(excinfo) == cli_error("predict", *args)
