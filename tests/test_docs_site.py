"""The documentation site (issue #27): `mkdocs build --strict` passes (broken links and anchors, pages out of the nav,
docstrings that do not render are errors), its generated parts hold what the code holds, and the quickstart page
renders with its figure in a headless browser (Debian's chromium, which .ci/run installs).

CAMEL_JAX_DOCS_SCREENSHOT=PATH keeps the browser's screenshot of the quickstart page there.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
import typing
from pathlib import Path

import numpy as np
import pytest
import yaml
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def mkdocs_build(config: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "--site-dir",
                           str(site)], cwd=config.parent, env=ENV, capture_output=True, text=True, timeout=600,
                          check=False)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site `mkdocs build --strict` makes of this checkout: .ci/run's own build (it stops on any warning, and
    names the folder in CAMEL_JAX_BUILT_SITE), else one built here."""
    built = os.environ.get("CAMEL_JAX_BUILT_SITE")
    if built and (Path(built) / "index.html").is_file():
        return Path(built)
    path = tmp_path_factory.mktemp("site") / "site"
    r = mkdocs_build(ROOT / "mkdocs.yml", path)
    assert r.returncode == 0, f"mkdocs build --strict failed:\n{r.stderr[-4000:]}"
    return path


def test_the_site_builds_strictly_with_generated_defaults_and_equations(site):
    from camel_jax import Config  # the package's name for TD3's config, wherever its module lives

    camel = (site / "algorithms" / "camel" / "index.html").read_text()
    # the defaults table is generated from the dataclass: its values are the code's, not a copy
    assert f"<code>--total-steps</code></td>\n<td><code>{Config.total_steps}</code>" in camel
    assert f"<code>--delta</code></td>\n<td><code>{Config.delta:g}</code>" in camel
    assert "Generated at build time from" in camel
    assert camel.count("<math") >= 20 and "$$" not in camel and "$\\pi" not in camel  # every formula is MathML
    ppo = (site / "algorithms" / "ppo" / "index.html").read_text()
    assert "<code>--clip-coef</code></td>\n<td><code>0.2</code>" in ppo
    api = (site / "reference" / "api" / "index.html").read_text()
    assert "camel_jax.api.train" in api and "load_actor" in api  # mkdocstrings rendered the docstrings
    assert (site / "bench" / "results" / "quickstart" / "curves.png").is_file()


def test_a_broken_anchor_or_link_fails_the_build(tmp_path):
    """The same validation settings as mkdocs.yml on a two-page site: a link to a missing anchor, then to a missing
    page, each stops the strict build with a message naming it."""
    ours = yaml.safe_load((ROOT / "mkdocs.yml").read_text().replace("!!python", ""))
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "b.md").write_text("# B\n\n## There\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text(yaml.safe_dump({"site_name": "t", "strict": True, "validation": ours["validation"],
                                      "markdown_extensions": ["toc"], "nav": ["index.md", "b.md"]}))
    (tmp_path / "docs" / "index.md").write_text("# A\n\n[fine](b.md#there)\n")
    assert mkdocs_build(config, tmp_path / "site").returncode == 0
    (tmp_path / "docs" / "index.md").write_text("# A\n\n[broken](b.md#nowhere)\n")
    r = mkdocs_build(config, tmp_path / "site")
    assert r.returncode != 0 and "nowhere" in r.stderr
    (tmp_path / "docs" / "index.md").write_text("# A\n\n[broken](c.md)\n")
    r = mkdocs_build(config, tmp_path / "site")
    assert r.returncode != 0 and "c.md" in r.stderr


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    requests: typing.ClassVar[list[tuple[str, int]]] = []

    def log_request(self, code="-", size="-"):
        self.requests.append((self.path, int(code) if str(code).isdigit() else 0))

    def log_message(self, *args):
        pass


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed: .ci/run installs it (apt-get install chromium)")
        pytest.skip("chromium is not installed here (apt-get install chromium); CI installs it and runs this test")
    return found


def test_the_quickstart_page_renders_with_its_figure(site, tmp_path):
    browser = chromium()
    QuietHandler.requests = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/get-started/"
    flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
             f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1280,1400"]
    try:
        dom = subprocess.run([*flags, "--dump-dom", url], capture_output=True, text=True, timeout=180, check=False)
        shot = tmp_path / "quickstart.png"
        snap = subprocess.run([*flags, f"--screenshot={shot}", url], capture_output=True, text=True, timeout=180,
                              check=False)
    finally:
        server.shutdown()
    assert dom.returncode == 0, dom.stderr[-2000:]
    html = dom.stdout
    text = re.sub(r"<[^>]+>", "", html)  # the highlighted command is split into spans
    assert "<h1" in html and "Get started" in text and "camel-jax compare --env ant --prior ant" in text
    assert 'src="../bench/results/quickstart/curves.png"' in html
    assert ("/bench/results/quickstart/curves.png", 200) in QuietHandler.requests, QuietHandler.requests
    assert any(path.startswith("/assets/stylesheets/") and code == 200 for path, code in QuietHandler.requests)
    assert snap.returncode == 0 and shot.is_file(), snap.stderr[-2000:]
    pixels = np.asarray(Image.open(shot).convert("L"), dtype=np.float32)
    assert pixels.shape == (1400, 1280) and pixels.std() > 20, "the screenshot is blank"
    if os.environ.get("CAMEL_JAX_DOCS_SCREENSHOT"):
        shutil.copy(shot, os.environ["CAMEL_JAX_DOCS_SCREENSHOT"])
