"""The suite's own order (tests/conftest.py): the longest files first, for two workers that end together."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# by its path: `import conftest` gets whichever conftest.py pytest put on sys.path first (tests/priors/ or
# tests/ultra/ under xdist in CI), not necessarily this folder's
_spec = importlib.util.spec_from_file_location("_suite_conftest", ROOT / "tests" / "conftest.py")
conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(conftest)


class _Item:
    def __init__(self, nodeid):
        self.nodeid, self.keywords = nodeid, {}

    def add_marker(self, marker):
        pass


def test_longest_first_names_existing_files_once():
    assert len(set(conftest.LONGEST_FIRST)) == len(conftest.LONGEST_FIRST)
    missing = [p for p in conftest.LONGEST_FIRST if not (ROOT / p).is_file()]
    assert not missing, f"renamed or removed test files: update LONGEST_FIRST in tests/conftest.py: {missing}"


def test_collection_puts_the_longest_files_first_and_keeps_each_file_s_order():
    ids = ["tests/test_a.py::x", "tests/test_golden.py::one", "tests/test_a.py::y", "tests/test_resume.py::one",
           "tests/test_golden.py::two"]
    items = [_Item(i) for i in ids]
    conftest.pytest_collection_modifyitems(None, items)
    assert [i.nodeid for i in items] == ["tests/test_resume.py::one", "tests/test_golden.py::one",
                                         "tests/test_golden.py::two", "tests/test_a.py::x", "tests/test_a.py::y"]
    assert "--no-loadscope-reorder" in (ROOT / ".ci" / "run").read_text()  # else xdist reorders by test count
