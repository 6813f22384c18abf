"""The layout checker: does the folder tree match the import tree?

Static analysis (``ast``, nothing is imported) of the library: ``minigrad/``, ``nn/``
(installed as ``minigrad.nn``) and ``models/`` (``minigrad.models``). It reports

(a) the import cycles among library modules and the largest one's size (at most 2 modules);
    every import that runs counts, at module level or inside a function, ``from . import x``
    included (``if TYPE_CHECKING:`` imports never run and are left out);
    ``from pkg import name`` counts as an import of ``pkg.name`` when that is a module, else of
    ``pkg`` (its ``__init__``); importing ``a.b.c`` also counts the package ``__init__`` files
    Python runs first (``a.b``, not the root and not the importer's own packages);
(b) imports inside functions (not at module level) in ``minigrad/ops/``: none allowed;
(c) generated module globals: ``globals().update``, ``globals()[...] =`` and a module-level
    ``__getattr__``: none allowed, but for one ``globals().update`` in ``minigrad/functional.py``
    (the module-level forms, derived from the Tensor methods marked ``@module_form``, each
    with its ``def`` in ``minigrad/tensor.py``, so every public name is still found by its def);
(d) hand-written second derivatives: any ``backward_graph`` defined: none allowed;
(e) ``scaled_dot_product_attention`` definitions: exactly one.

Run ``.venv/bin/python tools/check_layout.py``: it prints every figure and exits 1 when a
check fails; ``tests/packaging/test_layout.py`` asserts each check on its own.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# source folder -> the import name it is installed under (pyproject.toml's package-dir)
PACKAGE_ROOTS = {"minigrad": "minigrad", "nn": "minigrad.nn", "models": "minigrad.models"}
MAX_CYCLE = 2


@dataclass
class Module:
    """One library module: its import name, file and parsed tree."""

    name: str
    path: Path
    tree: ast.Module
    is_package: bool
    rel: str  # the file, relative to the repository root


@dataclass
class Report:
    """Everything the checks found; ``failures()`` names the checks that do not hold."""

    modules: dict[str, Module]
    edges: dict[str, set[str]]
    cycles: list[list[str]] = field(default_factory=list)
    ops_local_imports: list[str] = field(default_factory=list)
    generated_globals: list[str] = field(default_factory=list)
    backward_graph_defs: list[str] = field(default_factory=list)
    sdpa_defs: list[str] = field(default_factory=list)

    @property
    def largest_cycle(self) -> int:
        return max((len(c) for c in self.cycles), default=1)

    def failures(self) -> list[str]:
        out = []
        if self.largest_cycle > MAX_CYCLE:
            out.append(f"(a) largest import cycle {self.largest_cycle} > {MAX_CYCLE} modules")
        if self.ops_local_imports:
            out.append(f"(b) {len(self.ops_local_imports)} function-level imports in ops/")
        if self.generated_globals:
            out.append(f"(c) {len(self.generated_globals)} generated module globals")
        if self.backward_graph_defs:
            out.append(f"(d) {len(self.backward_graph_defs)} backward_graph definitions")
        if len(self.sdpa_defs) != 1:
            out.append(f"(e) {len(self.sdpa_defs)} scaled_dot_product_attention definitions")
        return out


def collect_modules(root: Path = ROOT) -> dict[str, Module]:
    """Every ``.py`` file of the library under its import name."""
    modules = {}
    for folder, package in PACKAGE_ROOTS.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = list(path.relative_to(root / folder).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            name = ".".join([package, *parts])
            modules[name] = Module(name, path, ast.parse(path.read_text(), str(path)), is_package,
                                   path.relative_to(root).as_posix())
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _imports(tree: ast.AST):
    """(node, is_module_level) for every import statement; module level means not inside a
    function (imports under ``if``/``try`` at module level are still module level). Imports
    under ``if TYPE_CHECKING:`` are left out: they never run, they only name types."""
    def walk(node: ast.AST, in_function: bool):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, not in_function
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                      ast.Lambda))
            yield from walk(child, inner)
    yield from walk(tree, False)


def imported_modules(mod: Module, node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    """The library modules one import statement loads (see the module docstring's rule)."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name in known}
    if node.level:
        base = mod.name.split(".") if mod.is_package else mod.name.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    out = set()
    for alias in node.names:
        sub = f"{target}.{alias.name}"
        if sub in known:
            out.add(sub)
        elif target in known:
            out.add(target)
    return out


def packages_run(importer: str, target: str, known: set[str]) -> set[str]:
    """The package ``__init__`` files that importing ``target`` from ``importer`` executes, as
    Python runs it: every enclosing package of ``target`` below the root, except those
    enclosing ``importer`` itself (they ran before it). The root (``minigrad``) is left out:
    it always runs first, and every module is reached from it."""
    parts = target.split(".")
    out = set()
    for i in range(2, len(parts)):
        package = ".".join(parts[:i])
        if package in known and not importer.startswith(package + "."):
            out.add(package)
    return out


def import_graph(modules: dict[str, Module]) -> dict[str, set[str]]:
    """importer -> the library modules its imports execute: the modules named (see
    :func:`imported_modules`) and the package ``__init__`` files above them
    (:func:`packages_run`)."""
    known = set(modules)
    edges: dict[str, set[str]] = {name: set() for name in modules}
    for name, mod in modules.items():
        for node, _ in _imports(mod.tree):
            for target in imported_modules(mod, node, known):
                edges[name] |= ({target} | packages_run(name, target, known)) - {name}
    return edges


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm (iterative): the import cycles, each as a sorted list of modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        comp.append(top)
                        if top == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return sorted(out, key=lambda c: (-len(c), c))


def _is_globals_call(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "globals")


# the one module whose names may be derived (see (c) above)
DERIVED_FORMS = "minigrad/functional.py"


def generated_globals(mod: Module) -> list[str]:
    found = []
    for node in ast.walk(mod.tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and _is_globals_call(node.func.value)
                and node.func.attr in ("update", "setdefault", "__setitem__")):
            found.append(f"{mod.rel}:{node.lineno} globals().{node.func.attr}")
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Subscript) and _is_globals_call(t.value):
                    found.append(f"{mod.rel}:{node.lineno} globals()[...] =")
    for node in mod.tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in (
                "__getattr__", "__dir__"):
            found.append(f"{mod.rel}:{node.lineno} module {node.name}")
    if mod.rel == DERIVED_FORMS and len(found) == 1 and found[0].endswith("globals().update"):
        return []
    return found


def definitions(mod: Module, name: str) -> list[str]:
    """Every ``def name`` (function or method) and module-level ``name = ...`` in a module."""
    found = []
    for node in ast.walk(mod.tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            found.append(f"{mod.rel}:{node.lineno}")
    for node in mod.tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            found.append(f"{mod.rel}:{node.lineno}")
    return found


def check(root: Path = ROOT) -> Report:
    """Run every check over the library under ``root``."""
    modules = collect_modules(root)
    edges = import_graph(modules)
    report = Report(modules, edges, cycles=strongly_connected(edges))
    for mod in modules.values():
        if mod.name.startswith("minigrad.ops."):
            report.ops_local_imports += [
                f"{mod.rel}:{node.lineno}" for node, top in _imports(mod.tree) if not top]
        report.generated_globals += generated_globals(mod)
        report.backward_graph_defs += definitions(mod, "backward_graph")
        report.sdpa_defs += definitions(mod, "scaled_dot_product_attention")
    return report


def main() -> int:
    r = check()
    print(f"library modules: {len(r.modules)}, import edges: {sum(map(len, r.edges.values()))}")
    print(f"(a) import cycles: {len(r.cycles)}; largest: {r.largest_cycle} modules "
          f"(at most {MAX_CYCLE})")
    for cycle in r.cycles:
        print(f"    {len(cycle)}: {', '.join(cycle)}")
    listed = [
        ("(b) function-level imports in minigrad/ops/", r.ops_local_imports, ""),
        ("(c) generated module globals / module __getattr__", r.generated_globals, ""),
        ("(d) backward_graph definitions (hand-written second derivatives)",
         r.backward_graph_defs, ""),
        ("(e) scaled_dot_product_attention definitions", r.sdpa_defs, " (exactly 1)"),
    ]
    for title, places, note in listed:
        print(f"{title}: {len(places)}{note}")
        for where in places:
            print(f"    {where}")
    failures = r.failures()
    print("layout: OK" if not failures else "layout: FAILS " + "; ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
