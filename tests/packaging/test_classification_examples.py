"""The classification examples: MNIST-1D's table of model families and the digits CNN.

Quick runs (a few steps) check that each script prints its table or accuracy as a user runs
it; the slow tests train as the README says and hold the measured accuracies. Without the
`examples` extra the datasets' tests skip, and the scripts say so in one line, exit 2.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLES))

import classify
import digits_cnn
import mnist1d_table

import minigrad
from minigrad import nn
from minigrad.utils.data import DataLoader, TensorDataset

ROW = re.compile(r"^(logistic|mlp|cnn|gru)\s+(\d+)%\s+(\d+\.\d)-(\d+\.\d)\s+(\d+\.\d)%\s+"
                 r"(\d+\.\d)\s+(\d+\.\d)%\s+(.*)$", re.MULTILINE)


def run_script(name: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True,
                          text=True, timeout=600, cwd=EXAMPLES.parent, check=False)


def test_mnist1d_quick_run_prints_the_table_beside_the_paper():
    pytest.importorskip("mnist1d")
    r = run_script("mnist1d_table.py", "--steps", "3", "--seeds", "0", "1")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "MNIST-1D: 4000 train, 1000 test, length 40" in r.stdout
    rows = {m[1]: m for m in ROW.finditer(r.stdout)}
    assert list(rows) == ["logistic", "mlp", "cnn", "gru"], r.stdout
    for name, row in rows.items():
        assert float(row[2]) == mnist1d_table.PAPER[name]
        runs = mnist1d_table.PAPER_RUNS[name]
        assert (float(row[3]), float(row[4])) == (min(runs), max(runs))
        per_seed = [float(v) for v in row[8].split(", ")]
        assert len(per_seed) == 2 and all(0 <= v <= 100 for v in per_seed), row[0]
        assert float(row[5]) == pytest.approx(np.mean(per_seed), abs=0.051)
        assert float(row[6]) == pytest.approx(max(per_seed) - min(per_seed), abs=0.051)
        assert float(row[7]) >= float(row[5]) - 0.051  # the best evaluation includes the last


class _Probe(nn.Module):
    """A linear layer that records, at each forward, whether it is in training mode."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(4, 3)
        self.modes: list[bool] = []

    def forward(self, x):
        self.modes.append(self.training)
        return self.linear(x)


@pytest.mark.parametrize("steps, batches", [(1, 2), (5, 2), (7, 3)])
def test_fit_calls_after_step_once_per_update_and_trains_in_training_mode(steps, batches):
    minigrad.manual_seed(0)
    model = _Probe()
    data = TensorDataset(minigrad.randn(2 * batches, 4), minigrad.tensor(np.arange(2 * batches) % 3))
    seen = []

    def after_step(n):
        seen.append(n)
        model.eval()  # as an evaluation on the way does

    # eager, so that the probe's Python runs at every forward (a captured step replays the
    # ops of the forward, not its Python; its module guard records again on a mode change)
    classify.fit(model, DataLoader(data, batch_size=2), steps, 1e-2, after_step=after_step,
                 captured=False)
    assert seen == list(range(1, steps + 1))
    assert model.modes == [True] * steps


@pytest.mark.parametrize("steps", [0, 3, 249, 250, 251, 500, 1000])
def test_mnist1d_follows_the_papers_loop_steps_0_to_n_tested_every_250(steps, monkeypatch):
    # The paper's train_model runs `for step in range(total_steps + 1)` with one update each,
    # and measures the test set when step % 250 == 0; the last step is always measured here.
    updates, calls = [], []
    real_fit = mnist1d_table.fit

    def spy_fit(model, loader, n, lr, after_step):
        def counted(k):
            updates.append(k)
            after_step(k)
        return real_fit(model, loader, n, lr, after_step=counted)

    def fake_accuracy(model, x, y):
        calls.append(updates[-1])
        return len(calls) % 7 / 10  # distinct values, so last and best are told apart

    monkeypatch.setattr(mnist1d_table, "fit", spy_fit)
    monkeypatch.setattr(mnist1d_table, "accuracy", fake_accuracy)
    rng = np.random.default_rng(0)
    data = {"x": rng.normal(size=(200, 40)).astype(np.float32), "y": rng.integers(0, 10, 200),
            "x_test": np.zeros((1, 40), np.float32), "y_test": np.zeros(1, np.int64)}
    final, best = mnist1d_table.train_one("logistic", data, steps, 0)
    assert updates == list(range(1, steps + 2))
    assert calls == sorted({s + 1 for s in range(0, steps + 1, 250)} | {steps + 1})
    values = [(i + 1) % 7 / 10 for i in range(len(calls))]
    assert (final, best) == (values[-1], max(values))


def test_digits_quick_run_prints_the_accuracy():
    pytest.importorskip("sklearn")
    r = run_script("digits_cnn.py", "--steps", "3")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "digits: 1347 train, 450 test images of 8x8" in r.stdout
    acc = float(re.search(r"^test accuracy: (\d+\.\d+)%$", r.stdout, re.MULTILINE)[1])
    assert 0 <= acc <= 100


@pytest.mark.parametrize("example, module, distribution", [
    (mnist1d_table, "mnist1d", "mnist1d"),
    (digits_cnn, "sklearn", "scikit-learn"),
])
def test_a_missing_extra_is_one_line_and_exit_status_2(example, module, distribution,
                                                       monkeypatch, capsys):
    for name in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, module, None)  # import of it raises ImportError
    assert example.main(["--steps", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and '".[examples]"' in err and f"needs {distribution} (the 'examples' extra)" in err


def test_the_paper_models_have_the_paper_shapes():
    import minigrad
    x = minigrad.tensor(np.zeros((3, 40), np.float32))
    counts = {}
    for name, make in mnist1d_table.MODELS.items():
        model = make()
        assert model(x).shape == (3, 10), name
        counts[name] = sum(p.data.size for p in model.parameters())
    # the parameter counts the paper's models.py prints for input length 40
    assert counts == {"logistic": 410, "mlp": 15210, "cnn": 5210, "gru": 5134}


# Final test accuracies (%) of the paper's procedure run by others: the paper's notebooks at
# seed 42 (mnist1d_table.PAPER_RUNS) and PyTorch 2.13 with the same loop and data on this
# machine, seeds 0, 1, 2, 42 (the GRU: seeds 0, 1), measured 2026-11-28. The paper states
# no seed spread; minigrad's mean over seeds 0, 1, 2 must land inside the range these span.
PYTORCH_RUNS = {"logistic": [31.6, 31.7, 31.6, 31.7], "mlp": [63.5, 65.2, 64.3, 64.7],
                "cnn": [94.6, 93.2, 93.6, 93.7], "gru": [91.9, 89.7]}


@pytest.mark.slow
@pytest.mark.parametrize("model", ["logistic", "mlp", "cnn", "gru"])
def test_mnist1d_lands_within_the_spread_of_the_papers_procedure(model):
    generator = pytest.importorskip("mnist1d.data")
    runs = mnist1d_table.run(mnist1d_table.load_mnist1d(generator), [model],
                             mnist1d_table.STEPS, [0, 1, 2])[model]
    mean = 100 * np.mean([final for final, _ in runs])
    reference = [*mnist1d_table.PAPER_RUNS[model], *PYTORCH_RUNS[model]]
    assert min(reference) <= mean <= max(reference), (runs, reference)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_digits_cnn_reaches_98_percent(seed):
    datasets = pytest.importorskip("sklearn.datasets")
    model_selection = pytest.importorskip("sklearn.model_selection")
    assert digits_cnn.run(digits_cnn.load_digits(datasets, model_selection, seed), 400,
                          seed) >= 0.98
