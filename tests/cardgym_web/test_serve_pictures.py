"""benchmarks/serve_pictures.py: the screenshots of the browser table's pages, taken
into a temporary folder by the script as ``make images`` would run it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
PICTURES = ("serve-power_hungry_pets.png", "serve-exploding_kittens.png",
            "serve-karel_kakelaar.png", "serve-lobby.png", "serve-replay.png")


def test_the_script_writes_five_whole_screenshots(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "benchmarks.serve_pictures", "--output",
                           str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(PICTURES)  # no temp file
    for name in PICTURES:
        path = tmp_path / name
        assert f"wrote {path}" in done.stdout
        with Image.open(path) as image:
            assert image.format == "PNG" and image.size == (1280, 800), name
            pixels = np.asarray(image.convert("RGB"), dtype=np.int16)
        # Not blank: many colours, and a good part of the page differs from its corner.
        colours = np.unique(pixels.reshape(-1, 3), axis=0)
        assert len(colours) > 64, f"{name} has {len(colours)} colours"
        differs = np.abs(pixels - pixels[0, 0]).sum(axis=2) > 30
        assert differs.mean() > 0.05, f"{name} is nearly one colour"
