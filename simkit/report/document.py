"""The PDF machinery shared by the balance report and the patch comparison.

Pages are plain :class:`matplotlib.figure.Figure` objects (no pyplot state), saved one by one into
:class:`~matplotlib.backends.backend_pdf.PdfPages` with a footer naming the scenario. Every output
file is written under a temporary name beside its final one and renamed only when all of them are
complete, so an interrupted report leaves nothing half-written.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from simkit.core.cells import csv_cell
from simkit.core.files import atomic_files, cannot_write

__all__ = ["PORTRAIT", "LANDSCAPE", "ReportPdf", "atomic_outputs", "csv_safe", "output_paths", "text_page",
           "write_csvs"]

PORTRAIT = (8.27, 11.69)   # A4, inches
LANDSCAPE = (11.69, 8.27)
CUT_AT_MOST = 0.6  # a page cut to its content keeps at least 40% of its height
FOOT = 0.45  # inches under a page's lowest content when the page is cut to its content (footer included)


def output_paths(out: str | Path, tables: list[str]) -> tuple[Path, dict[str, Path]]:
    """The PDF path and the CSV path of each table (``NAME.pdf`` -> ``NAME.<table>.csv`` beside it).

    Raises:
        ValueError: when ``out`` does not end in ``.pdf``.
    """
    pdf = Path(out)
    if pdf.suffix.lower() != ".pdf":
        raise ValueError(f"{pdf}: the report must be a .pdf file (e.g. reports/quick.pdf)")
    return pdf, {t: pdf.with_name(f"{pdf.stem}.{t}.csv") for t in tables}


@contextmanager
def atomic_outputs(finals: list[Path]) -> Iterator[dict[Path, Path]]:
    """Temporary paths for ``finals``; renamed over them together when the block ends without error.

    The temporary files are the process's own (:func:`simkit.core.files.atomic_files`): unique names
    ``.<name>.<pid>.<token>.tmp<suffix>``, removed on any failure; those a killed report left
    behind are removed by the next report writing the same files.

    Args:
        finals: the files to produce (their folders are created).

    Yields:
        dict final path -> temporary path to write.

    Raises:
        ValueError: a file could not be written (full disk, name too long, read-only folder): one
            line naming the first final file (the PDF) and the system's reason.
    """
    finals = [Path(f) for f in finals]
    ours: set[Path] = set(finals)
    try:
        with atomic_files(finals) as temps:
            ours |= set(temps.values())
            yield temps
    except OSError as exc:  # a full disk, a name too long, a folder under a file or read-only: one line
        name = Path(exc.filename) if exc.filename else None
        if name is None or name in ours or any(name in f.parents for f in finals):
            raise cannot_write(str(finals[0]), exc) from None
        raise ValueError(f"{name}: {exc.strerror or exc}") from None


class ReportPdf:
    """A multi-page PDF being written: pages get a footer and a number; metadata is set once.

    Args:
        path: where to write (a temporary path from :func:`atomic_outputs`).
        title: the PDF's title.
        footer: the text at the foot of every page.
        subject: the PDF's subject metadata.
        keywords: the PDF's keywords metadata (scenario hash, rules version).
    """

    def __init__(self, path: Path, title: str, footer: str, subject: str, keywords: str):
        import simkit

        self.footer = footer
        self.titles: list[str] = []
        self._pdf = PdfPages(path, metadata={
            "Title": title, "Subject": subject, "Keywords": keywords,
            "Author": "simkit", "Creator": f"simkit {simkit.__version__}",
        })

    def new_page(self, size: tuple[float, float] = PORTRAIT) -> Figure:
        """A blank page of ``size`` inches."""
        return Figure(figsize=size)

    def add(self, fig: Figure, title: str, down_to: float | None = None) -> None:
        """Stamp the footer and page number on ``fig``, save it as the next page and drop it.

        Args:
            fig: the page.
            title: the page's name in its footer (and in :attr:`titles`).
            down_to: the figure fraction of the page's lowest content: the page is cut just below it (sized to
                its content, not left half empty) with the footer under the content; ``None``: the whole page.
        """
        self.titles.append(title)
        width, height = fig.get_figwidth(), fig.get_figheight()
        bottom = 0.0 if down_to is None else min(max(0.0, down_to - FOOT / height), CUT_AT_MOST)
        bottom = bottom if bottom * height > 0.5 else 0.0  # content down to the foot: the whole page
        fig.text(0.5, bottom + 0.008, f"{self.footer}  |  {title}  |  page {len(self.titles)}", ha="center",
                 va="bottom", fontsize=6, color="#666666")
        if bottom > 0:
            self._pdf.savefig(fig, bbox_inches=Bbox.from_bounds(0, bottom * height, width, (1 - bottom) * height))
        else:
            self._pdf.savefig(fig)

    def close(self) -> None:
        """Finish the file."""
        self._pdf.close()

    def __enter__(self) -> ReportPdf:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


#: the colour of a verdict by its state (:data:`simkit.core.words.VERDICT_STATES`)
VERDICT_COLOURS = {"balanced": "#1e6b35", "not balanced": "#a3281d", "not settled": "#7a5200"}


def text_page(fig: Figure, title: str, blocks: list[tuple[str, list[str]]], top: float = 0.95,
              bottom: float = 0.03, overflow: str = "... (the rest is in the CSV tables)", lead: str = "",
              lead_state: str = "") -> None:
    """Lay out headed text blocks on a page (title page, summaries), cut short above ``bottom``.

    Args:
        fig: the page.
        title: the page's big title (may be empty).
        blocks: ``(heading, lines)`` pairs; a heading may be empty; lines are pre-wrapped.
        top: figure fraction of the title's top.
        bottom: figure fraction below which nothing is written; text that would go lower is
            replaced by one ``overflow`` line.
        overflow: the line that says text was cut.
        lead: the page's answer in one sentence, set large and bold under the title (wrapped here).
        lead_state: the verdict's state (``balanced``, ``not balanced``, ``not settled``), which colours it.
    """
    from textwrap import wrap

    height = fig.get_figheight() * 72
    step = 11.5 / height
    if title:
        fig.text(0.07, top, title, fontsize=17, weight="bold", va="top")
        top -= 0.045
    if lead:
        width = int(80 * fig.get_figwidth() / 8.27)
        lines = wrap(lead, width)
        fig.text(0.07, top, "\n".join(lines), fontsize=11.5, weight="bold", va="top", linespacing=1.3,
                 color=VERDICT_COLOURS.get(lead_state, "black"))
        top -= (len(lines) * 11.5 * 1.3 + 10) / height
    y = top
    for heading, lines in blocks:
        if heading:
            y -= 0.012
            fig.text(0.07, y, heading, fontsize=11, weight="bold", va="top")
            y -= 15 / height
        for line in lines:
            if y - 2 * step < bottom:
                fig.text(0.09, y, overflow, fontsize=8.5, va="top", style="italic")
                return
            fig.text(0.09, y, line, fontsize=8.5, va="top")
            y -= step
        y -= 4 / height


def csv_safe(table: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``table`` with every text cell and column name passed through :func:`csv_cell`."""
    out = table.rename(columns=csv_cell)
    for col in range(out.shape[1]):
        column = out.iloc[:, col]
        if column.dtype == object or isinstance(column.dtype, pd.StringDtype | pd.CategoricalDtype):
            out.isetitem(col, column.astype(object).map(csv_cell))
    return out


def write_csvs(tables: dict[str, pd.DataFrame], temps: dict[str, Path]) -> None:
    """Write each table to its (temporary) CSV path, without the index, its text cells made safe for
    spreadsheets (:func:`csv_safe`)."""
    for name, path in temps.items():
        csv_safe(tables[name]).to_csv(path, index=False)
