"""What reading a portrait upload costs in memory (sheets/portraits.py), per kind of file.

    .venv/bin/python bench/portrait_memory.py

Each case runs in a fresh Python process and prints the growth of its peak resident
memory while `normalise` reads the upload (alone, or four at once in threads, as four
uploads to one server process would), and what the uploader is told. The 121 KB PNG of
4000×4000 16-bit pixels once took about 190 MB a read; now it is refused from its header.
"""

from __future__ import annotations

import io
import os
import resource
import struct
import subprocess
import sys
import tempfile
import threading
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder comes first on sys.path: put the repository root there.
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]


def png_of(width: int, height: int, depth: int, colour_type: int, channels: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + body))
        return struct.pack(">I", len(body)) + kind + body + crc

    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    row = b"\x00" * (1 + width * channels * depth // 8)
    packer = zlib.compressobj(9)
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")
    )


def photo(fmt: str, size: tuple[int, int]) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.radial_gradient("L").resize(size).convert("RGB").save(out, fmt, quality=80)
    return out.getvalue()


CASES = {
    "16-bit RGBA PNG 4000×4000": lambda: png_of(4000, 4000, 16, 6, 4),
    "16-bit RGBA PNG 2800×2800": lambda: png_of(2800, 2800, 16, 6, 4),
    "RGB JPEG 4000×3000": lambda: photo("JPEG", (4000, 3000)),
    "RGB WebP 2000×2000": lambda: photo("WEBP", (2000, 2000)),
    "RGB WebP 4000×3000": lambda: photo("WEBP", (4000, 3000)),
}


def run_case(name: str, path: str, at_once: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rollcall.settings")
    os.environ["PORTRAIT_DECODE_WAIT"] = "60"  # measure the reads, not the refusals
    import django

    django.setup()
    from sheets.portraits import PortraitError, normalise

    data = Path(path).read_bytes()
    told: list[str] = []

    def read() -> None:
        try:
            normalise(data)
            told.append("kept")
        except PortraitError as error:
            told.append(str(error)[:60])

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    threads = [threading.Thread(target=read) for _ in range(at_once)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    print(f"{name:28} {len(data) / 1024:8.0f} KB  ×{at_once}  peak +{grown:6.0f} MB  {told[0]}")


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--case":
        run_case(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    print(f"{'file':28} {'size':>11}  n   peak memory    told")
    with tempfile.TemporaryDirectory() as folder:
        for number, (name, make) in enumerate(CASES.items()):
            path = Path(folder) / f"{number}.upload"
            path.write_bytes(make())  # made here, so the reading process grows by the read only
            for at_once in (1, 4):
                subprocess.run(  # noqa: S603 - this script, run again for one case
                    [sys.executable, __file__, "--case", name, str(path), str(at_once)],
                    check=True,
                )


if __name__ == "__main__":
    main()
