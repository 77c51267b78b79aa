"""mkdocs hooks: the README becomes the site's user guide, and links out of docs/ are checked, not lost.

- The repository's ``README.md`` is added to the site as ``guide.md``: its links to ``docs/X`` point at the
  site's page ``X``, its pictures are copied beside it.
- A link to the README from a page of ``docs/`` points at the site's user guide.
- A link from any page to a repository file outside ``docs/`` (``../notebooks/balance.ipynb``, the README's
  ``notebooks/...``) becomes the file's path in code, if the file exists; a link to a repository path that does
  not exist fails the build (the site has no copy of the repository, so the link could not work there).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")


def _outside(text: str, base: Path, where: str) -> str:
    """``text`` with every link that leaves ``docs/`` made a code path (checked to exist)."""

    def fix(m: re.Match) -> str:
        bang, label, target = m.groups()
        if re.match(r"[a-z]+:|#|assets/", target):  # a web address, an anchor, a picture copied into the site
            return m.group(0)
        path = (base / target.split("#")[0]).resolve()
        if path.is_relative_to(DOCS):
            return m.group(0)
        if path == ROOT / "README.md":  # the README is the site's user guide
            return f"{bang}[{label}]({os.path.relpath(DOCS / 'guide.md', base)})"
        if not path.exists():
            raise PluginError(f"{where}: links {target}, which is not in the repository")
        shown = path.relative_to(ROOT).as_posix()
        return f"{label} (`{shown}`)" if label.strip("`") != shown else f"`{shown}`"

    return LINK.sub(fix, text)


def on_files(files, config):
    """Add the README as ``guide.md`` and the pictures it shows."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for picture in sorted(set(re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", text))):
        name = f"assets/{Path(picture).name}"
        files.append(File.generated(config, name, content=(ROOT / picture).read_bytes()))
        text = text.replace(f"]({picture})", f"]({name})")
    text = _outside(text, ROOT, "README.md")  # the README's links, read from the repository's root
    text = re.sub(r"\]\(docs/", "](", text)
    files.append(File.generated(config, "guide.md", content=text))
    return files


def on_page_markdown(markdown, page, config, files):
    """A page's links out of docs/ become checked code paths."""
    if page.file.src_uri == "guide.md":
        return markdown
    base = (DOCS / page.file.src_uri).parent
    return _outside(markdown, base, f"docs/{page.file.src_uri}")
