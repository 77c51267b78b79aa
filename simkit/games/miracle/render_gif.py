"""An animated GIF written frame by frame, so a long replay never sits in memory whole.

Pillow's ``save(save_all=True)`` keeps every frame until the end (about 0.8 MB per 1080x720
frame: a 600-action game would hold half a gigabyte). Here each frame is compared with the one
before, only the changed rectangle is quantized to its own 256-colour palette and written at
its offset (disposal "leave in place"), using Pillow's GIF block writers ``getheader`` and
``getdata``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from PIL import GifImagePlugin, Image, ImageChops

#: "Do not dispose": each frame is drawn over the previous one.
LEAVE_IN_PLACE = 1


def paletted(image: Image.Image) -> Image.Image:
    """``image`` quantized to its own palette of at most 256 colours (fast octree, no dithering)."""
    return image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def write_gif(path: str | Path, frames: Iterable[Image.Image], durations: Sequence[int], loop: int = 0) -> int:
    """Write RGB frames as an animated GIF, one frame at a time.

    Args:
        path: the file to write.
        frames: RGB images of one size, consumed one by one.
        durations: milliseconds each frame shows (one per frame; GIF counts in 10 ms steps).
        loop: times to loop, 0 for ever.

    Returns:
        The number of frames written.

    Raises:
        ValueError: no frames, frames of different sizes, or fewer durations than frames.
    """
    try:
        return _write(Path(path), frames, durations, loop)
    except BaseException:
        Path(path).unlink(missing_ok=True)  # no half-written GIF left behind
        raise


def _write(path: Path, frames: Iterable[Image.Image], durations: Sequence[int], loop: int) -> int:
    previous: Image.Image | None = None
    count = 0
    with open(path, "wb") as fp:
        for image in frames:
            image = image.convert("RGB")
            if count >= len(durations):
                raise ValueError(f"{len(durations)} durations for more frames")
            if previous is None:
                box = (0, 0, *image.size)
                part = paletted(image)
                header, _ = GifImagePlugin.getheader(part, info={"loop": loop, "duration": durations[0]})
                fp.write(b"".join(header))
            else:
                if image.size != previous.size:
                    raise ValueError(f"frame {count} is {image.size}, the first was {previous.size}")
                box = ImageChops.difference(previous, image).getbbox() or (0, 0, 1, 1)
                part = paletted(image.crop(box))
            for chunk in GifImagePlugin.getdata(part, offset=box[:2], duration=durations[count],
                                                disposal=LEAVE_IN_PLACE, include_color_table=True):
                fp.write(chunk)
            previous = image
            count += 1
        if count == 0:
            raise ValueError("a GIF needs at least one frame")
        fp.write(b";")
    return count


__all__ = ["paletted", "write_gif"]
