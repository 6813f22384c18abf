"""minigrad.viz: DOT text of the graph, the terminal summary, attention weights."""

from __future__ import annotations

import re
import sys
from collections import Counter

import numpy as np
import pytest

import minigrad as mg
from minigrad import viz

NODE = re.compile(r'^\s*(\w+) \[label="((?:[^"\\]|\\.)*)"(?:, [\w]+=[\w.]+)*\];$')
EDGE = re.compile(r'^\s*(\w+) -> (\w+)(?: \[label="\d+"\])?;$')
ATTR = re.compile(r"^\s*(rankdir=\w+|(node|edge) \[.*\]);$")


def parse_dot(text: str) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """Check DOT structure strictly and return ({node id: label}, [(tail, head)])."""
    assert text.startswith("digraph minigrad {\n") and text.endswith("}\n")
    # braces balanced outside quoted strings, never negative
    depth = 0
    in_str = escaped = False
    for ch in text:
        if in_str:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            assert depth >= 0
    assert depth == 0 and not in_str
    nodes: dict[str, str] = {}
    edges: list[tuple[str, str]] = []
    for line in text.splitlines()[1:-1]:
        if m := NODE.match(line):
            assert m.group(1) not in nodes, f"node {m.group(1)} declared twice"
            nodes[m.group(1)] = m.group(2)
        elif m := EDGE.match(line):
            edges.append((m.group(1), m.group(2)))
        else:
            assert ATTR.match(line), f"not a DOT statement: {line!r}"
    for a, b in edges:
        assert a in nodes and b in nodes, f"edge {a} -> {b} uses an undeclared node"
        # edges alternate kinds: tensor -> op -> tensor
        assert a.startswith("t") != b.startswith("t")
    return nodes, edges


def small_graph():
    a = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    b = mg.tensor([[0.5, -1.0, 2.0], [1.0, 1.0, 1.0]], requires_grad=True)
    c = mg.tensor([1.0, 0.0, -1.0], requires_grad=True)
    return a, b, c, (a * b + c).sum()


def test_to_dot_small_graph_structure():
    _a, _b, _c, y = small_graph()
    nodes, edges = parse_dot(viz.to_dot(y))
    tensors = [n for n in nodes if n.startswith("t")]
    ops = [n for n in nodes if n.startswith("op")]
    assert len(tensors) == 6  # a, b, c, a*b, a*b+c, sum
    assert sorted(nodes[o] for o in ops) == ["Add", "Mul", "Sum"]
    assert len(edges) == 2 + 2 + 1 + 3  # inputs of Mul, Add, Sum + one output each
    # each op has exactly one outgoing edge, every non-leaf tensor exactly one incoming
    assert sorted(a for a, _ in edges if a.startswith("op")) == sorted(ops)
    leaves = [t for t in tensors if "requires_grad" in nodes[t]]
    assert len(leaves) == 3
    assert all(not any(b == t for _, b in edges) for t in leaves)
    assert nodes["t0"].startswith("(2, 3) float32")  # a is numbered first
    assert "(3,) float32" in nodes["t3"] or "(3,) float32" in nodes["t2"]


def test_to_dot_is_deterministic_and_names_tensors():
    a, _b, c, y = small_graph()
    assert viz.to_dot(y) == viz.to_dot(y)
    _a2, _b2, _c2, y2 = small_graph()
    assert viz.to_dot(y2) == viz.to_dot(y)  # ids depend on structure, not on memory
    named = viz.to_dot(y, names={"a": a, "bias": c})
    nodes, _ = parse_dot(named)
    labels = list(nodes.values())
    assert any(lab.startswith("a\\n(2, 3)") for lab in labels)
    assert any(lab.startswith("bias\\n(3,)") for lab in labels)
    assert "rankdir=LR;" in viz.to_dot(y, rankdir="LR")


def test_to_dot_constants_shared_inputs_and_edge_positions():
    x = mg.tensor([1.0, -2.0], requires_grad=True)
    y = (x * x) - 3.0  # x used twice; 3.0 becomes a constant tensor
    text = viz.to_dot(y)
    nodes, edges = parse_dot(text)
    assert len([n for n in nodes if n.startswith("t")]) == 4  # x, x*x, const, y
    const = [n for n, lab in nodes.items() if n.startswith("t") and "requires_grad" not in lab
             and not any(b == n for _, b in edges)]
    assert len(const) == 1 and "fillcolor=white" in text
    assert edges.count(("t0", "op0")) == 2
    assert 't0 -> op0 [label="0"];' in text and 't0 -> op0 [label="1"];' in text


def test_to_dot_escapes_quotes_in_names():
    x = mg.tensor([1.0], requires_grad=True)
    nodes, _ = parse_dot(viz.to_dot(x.exp(), names={'the "x"\\': x}))
    assert any(lab.startswith('the \\"x\\"\\\\') for lab in nodes.values())


def test_graph_survives_retained_backward_and_lone_tensors():
    a, b, _c, y = small_graph()
    before = viz.to_dot(y)
    y.backward(retain_graph=True)
    assert viz.to_dot(y) == before  # retain_graph keeps the whole graph
    y.backward()  # a plain backward takes it apart as it goes (activations die early)
    assert sorted(parse_dot(viz.to_dot(y))[0].values()) == ["() float32", "Sum"]  # no inputs
    nodes, edges = parse_dot(viz.to_dot(mg.tensor([1.0, 2.0])))
    assert len(nodes) == 1 and edges == []
    with mg.no_grad():
        z = (a * b).sum()
    assert len(parse_dot(viz.to_dot(z))[0]) == 1


def test_deep_chain_has_no_recursion_limit():
    x = mg.tensor([0.5], requires_grad=True)
    y = x
    for _ in range(3000):
        y = y * 1.0
    nodes, _edges = parse_dot(viz.to_dot(y))
    assert len([n for n in nodes if n.startswith("op")]) == 3000
    assert "Mul 3000" in viz.graph_summary(y)


def test_bad_arguments():
    x = mg.tensor([1.0], requires_grad=True)
    with pytest.raises(TypeError, match="minigrad Tensor"):
        viz.to_dot(np.ones(3))
    with pytest.raises(ValueError, match="rankdir"):
        viz.to_dot(x, rankdir="UP")
    with pytest.raises(TypeError, match="must be a Tensor"):
        viz.to_dot(x, names={"x": np.ones(1)})
    with pytest.raises(ValueError, match="max_rows"):
        viz.graph_summary(x, max_rows=1)
    with pytest.raises(ValueError, match="format"):
        viz.render(x, "g.gif", format="gif")


def test_graph_summary_lists_ops():
    a, _b, _c, y = small_graph()
    text = viz.graph_summary(y, names={"a": a})
    lines = text.splitlines()
    assert lines[0].startswith("graph of a () float32 tensor: 3 ops, 6 tensors")
    assert "3 leaves requiring grad" in lines[0]
    assert lines[1].split()[:3] == ["%0", "=", "a"]
    assert any(re.match(r"%\d+ = Mul\(%0, %1\)\s+\(2, 3\)\s+float32$", ln) for ln in lines)
    assert any(re.match(r"%\d+ = Sum\(%\d+\)\s+\(\)\s+float32$", ln) for ln in lines)
    assert lines[-1] == "ops by name: Add 1, Mul 1, Sum 1"


def test_graph_summary_elides_long_listings():
    x = mg.tensor([0.5], requires_grad=True)
    y = x
    for _ in range(40):
        y = y.tanh()
    text = viz.graph_summary(y, max_rows=10)
    assert "... 31 rows not shown ..." in text
    assert text.splitlines()[-1] == "ops by name: Tanh 40"
    assert len(viz.graph_summary(y, max_rows=None).splitlines()) == 41 + 2


def test_render_without_graphviz_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "graphviz", None)  # makes `import graphviz` fail
    x = mg.tensor([1.0], requires_grad=True)
    with pytest.raises(ImportError, match=re.escape('pip install -e ".[viz]"')):
        viz.render(x.exp(), str(tmp_path / "g.svg"))


def test_render_hands_the_dot_text_to_graphviz(monkeypatch, tmp_path):
    calls = []

    class FakeSource:
        def __init__(self, source):
            calls.append(source)

        def pipe(self, format):
            return f"<{format}>".encode()

    fake = type(sys)("graphviz")
    fake.Source = FakeSource
    monkeypatch.setitem(sys.modules, "graphviz", fake)
    x = mg.tensor([1.0], requires_grad=True)
    y = x.exp()
    path = viz.render(y, str(tmp_path / "g.png"), format="png")
    assert calls == [viz.to_dot(y)]
    with open(path, "rb") as f:
        assert f.read() == b"<png>"


# ---- a tiny GPT: the graph of its loss, and its attention weights ------------------------


def tiny_gpt(n_layer=2, n_head=2, n_embd=8, vocab=11, block=6):
    models = pytest.importorskip("models")
    mg.manual_seed(0)
    return models.GPT(vocab_size=vocab, block_size=block, n_layer=n_layer, n_head=n_head,
                      n_embd=n_embd)


def test_to_dot_of_a_tiny_gpt_loss():
    model = tiny_gpt()
    rng = np.random.default_rng(0)
    idx = rng.integers(0, 11, size=(2, 6))
    targets = rng.integers(0, 11, size=(2, 6))
    _, loss = model(idx, targets)
    params = dict(model.named_parameters())
    text = viz.to_dot(loss, names=params)
    nodes, _edges = parse_dot(text)

    # count what the DOT text should hold by walking the graph independently
    seen, stack, op_names = set(), [loss], Counter()
    while stack:
        t = stack.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        if t._ctx is not None:
            op_names[t._ctx.fn.__name__] += 1
            stack.extend(t._ctx.parents)
    n_ops = sum(op_names.values())
    assert n_ops > 20
    assert len([n for n in nodes if n.startswith("op")]) == n_ops
    assert len([n for n in nodes if n.startswith("t")]) == len(seen)
    assert len(nodes) == n_ops + len(seen)
    assert Counter(nodes[n] for n in nodes if n.startswith("op")) == op_names
    assert text.count("penwidth=2") == 1  # the loss itself
    # every parameter used by the forward pass appears, named, and needs grad
    labels = list(nodes.values())
    for name in params:
        assert any(lab.startswith(name + "\\n") and "requires_grad" in lab for lab in labels), name
    summary = viz.graph_summary(loss, max_rows=None)
    assert summary.splitlines()[-1] == "ops by name: " + ", ".join(
        f"{k} {v}" for k, v in sorted(op_names.items()))
    assert len(summary.splitlines()) == len(seen) + 2


def test_attention_weights_of_a_tiny_gpt_are_causal_distributions():
    model = tiny_gpt(n_layer=2, n_head=2)
    idx = np.array([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]])
    model.train()
    weights = viz.attention_weights(model, idx)
    assert len(weights) == 2
    for w in weights:
        assert w.shape == (2, 2, 5, 5)
        np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=1e-5)
        upper = np.triu(np.ones((5, 5), dtype=bool), k=1)
        assert np.all(w[..., upper] == 0.0)  # causal: nothing to the right of the diagonal
        assert np.all(w[..., 0, 0] == pytest.approx(1.0))  # the first token sees itself only
    # the model's mode and the layers' flags are put back
    assert model.training
    layers = [m for _, m in model.named_modules() if hasattr(m, "record_weights")]
    assert len(layers) == 2 and not any(m.record_weights for m in layers)
    names = [n for n, _ in viz.named_attention_weights(model, idx)]
    assert names == [n for n, m in model.named_modules() if hasattr(m, "record_weights")]


def test_attention_weights_errors():
    with pytest.raises(TypeError, match="nn.Module"):
        viz.attention_weights(object(), np.zeros((1, 2), dtype=np.int64))
    nn = pytest.importorskip("nn")
    with pytest.raises(ValueError, match="no attention layer"):
        viz.attention_weights(nn.Linear(2, 2), mg.randn(1, 2))


# ---- examples/plot_attention.py -------------------------------------------------------------


def _plot_script():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "examples" / "plot_attention.py"
    spec = importlib.util.spec_from_file_location("plot_attention", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def checkpoint(tmp_path):
    """A checkpoint shaped like train_chars.py's: model arrays, config dict, vocab string."""
    vocab = "\n !:ABEMNORSTabefhnorstu"
    model = tiny_gpt(n_layer=2, n_head=2, n_embd=8, vocab=len(vocab), block=8)
    state = {k: np.array(v.data) for k, v in model.state_dict().items()}
    config = {"vocab_size": len(vocab), "block_size": 8, "n_layer": 2, "n_head": 2,
              "n_embd": 8, "dropout": 0.0, "bias": True, "tie_weights": True,
              "lr": 1e-3, "batch_size": 4}  # extra training keys are ignored
    path = tmp_path / "ckpt_best.npz"
    mg.save({"model": state, "config": config, "vocab": vocab, "iteration": 3}, str(path))
    return path


def test_plot_attention_prints_causal_tables(checkpoint, capsys):
    script = _plot_script()
    prompt = "ROMEO: But soft"  # 15 chars; the model keeps the last block_size = 8
    assert script.main(["--checkpoint", str(checkpoint), "--prompt", prompt, "--print"]) == 0
    out = capsys.readouterr().out
    tables = [t for t in out.split("\n\n") if t.strip()]
    assert len(tables) == 2 * 2  # layers x heads
    assert tables[0].startswith("blocks.0.attn, head 0")
    for table in tables:
        rows = [line.split()[1:] for line in table.splitlines()[2:]]
        w = np.array(rows, dtype=float)
        assert w.shape == (8, 8)
        np.testing.assert_allclose(w.sum(axis=1), 1.0, atol=0.03)  # printed with 2 decimals
        assert np.all(w[np.triu_indices(8, k=1)] == 0.0)
    assert "\u2423" in tables[0]  # the space of " But soft" is shown visibly


def test_plot_attention_bad_inputs(checkpoint, tmp_path, capsys):
    script = _plot_script()
    assert script.main(["--checkpoint", str(tmp_path / "nope.npz")]) == 2
    assert "no checkpoint" in capsys.readouterr().err
    assert script.main(["--checkpoint", str(checkpoint), "--prompt", "xyz~"]) == 2
    assert "'x', 'y', 'z', '~'" in capsys.readouterr().err
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip file")
    assert script.main(["--checkpoint", str(junk)]) == 2
    assert "cannot read checkpoint" in capsys.readouterr().err
    other = tmp_path / "other.npz"
    mg.save({"model": {}}, str(other))
    assert script.main(["--checkpoint", str(other)]) == 2
    assert "missing ['config', 'vocab']" in capsys.readouterr().err


def test_plot_attention_without_matplotlib_says_how_to_install(checkpoint, monkeypatch, capsys):
    script = _plot_script()
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert script.main(["--checkpoint", str(checkpoint), "--prompt", "ROMEO"]) == 1
    assert 'pip install -e ".[plot]"' in capsys.readouterr().err


def test_plot_attention_draws_a_png(checkpoint, tmp_path):
    pytest.importorskip("matplotlib")
    script = _plot_script()
    out = tmp_path / "attn.png"
    assert script.main(["--checkpoint", str(checkpoint), "--prompt", "ROMEO:", "--out",
                        str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_draws_the_format_the_extension_names(monkeypatch, tmp_path):
    formats = []

    class FakeSource:
        def __init__(self, source):
            pass

        def pipe(self, format):
            formats.append(format)
            return f"<{format}>".encode()

    fake = type(sys)("graphviz")
    fake.Source = FakeSource
    monkeypatch.setitem(sys.modules, "graphviz", fake)
    y = mg.tensor([1.0], requires_grad=True).exp()
    for name in ("g.png", "g.PDF", "g.svg"):
        assert viz.render(y, str(tmp_path / name)) == str(tmp_path / name)
    assert formats == ["png", "pdf", "svg"]
    assert (tmp_path / "g.png").read_bytes() == b"<png>"
    # a format that contradicts the name, or a name that names no format: refused, no file
    with pytest.raises(ValueError, match="extension asks for png"):
        viz.render(y, str(tmp_path / "h.png"), format="svg")
    for name in ("h.gif", "h"):
        with pytest.raises(ValueError, match=r"one of \.svg, \.png, \.pdf"):
            viz.render(y, str(tmp_path / name))
    assert formats == ["png", "pdf", "svg"] and not list(tmp_path.glob("h*"))


def test_render_without_the_dot_program_says_so(monkeypatch, tmp_path):
    class NotFound(RuntimeError):
        pass

    class FakeSource:
        def __init__(self, source):
            pass

        def pipe(self, format):
            raise NotFound("failed to execute 'dot'")

    fake = type(sys)("graphviz")
    fake.Source, fake.ExecutableNotFound = FakeSource, NotFound
    monkeypatch.setitem(sys.modules, "graphviz", fake)
    x = mg.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="'dot' program is not on PATH"):
        viz.render(x.exp(), str(tmp_path / "g.svg"))
    assert not (tmp_path / "g.svg").exists()


def test_the_real_dot_program_accepts_the_text(tmp_path):
    """Where Graphviz is installed, it parses the DOT text of a tiny GPT's loss."""
    import shutil
    import subprocess

    dot = shutil.which("dot")
    if dot is None:
        pytest.skip("the Graphviz 'dot' program is not installed")
    model = tiny_gpt(n_layer=1)
    idx = np.arange(12).reshape(2, 6) % 11
    _, loss = model(idx, idx)
    text = viz.to_dot(loss, names=dict(model.named_parameters()))
    result = subprocess.run([dot, "-Tsvg"], input=text, capture_output=True, text=True, check=False,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert "<svg" in result.stdout and "LayerNormFunction" in result.stdout
