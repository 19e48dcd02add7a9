"""What the screenshot scripts share: headless Chromium on SimCord's preview page, in Discord's
dark theme or (its colour variables overridden) its light one.

SimCord's preview is dark only. `theme(light=True)` serves the page's stylesheet with Discord's
light palette after it; the page and the bot's messages are otherwise the same.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from simcord.preview import _server

ROOT = Path(__file__).resolve().parent.parent

# Discord's light theme, over the preview's dark colour variables (simcord preview.css).
LIGHT = """
:root {
  color-scheme: light; background: #ffffff; color: #313338;
  --discord-bg: #ffffff; --discord-surface: #f2f3f5; --discord-elevated: #e3e5e8;
  --discord-control: #e3e5e8; --discord-hover: #ebedef; --discord-text: #313338;
  --discord-muted: #5c5e66; --discord-subtle: #4e5058; --discord-border: #d4d7dc;
  --component-surface: #f8f8f9; --component-border: #dfe1e5; --modal-surface: #ffffff;
  --modal-separator: #e3e5e8; --control-border: #c4c9ce; --chip-surface: #e3e5e8;
  --list-surface: #ffffff; --option-hover: #ebedef; --subtle-surface: #e3e5e8;
  --subtle-surface-text: #313338; --entity-text: #313338; --entity-dim: #5c5e66;
  --input-surface: #ebedef; --input-placeholder: #5c5e66; --modal-trigger-border: #c4c9ce;
  --choice-border: #80848e; --button-alt: #d7d9dc; --button-alt-hover: #c4c9ce;
  --button-alt-active: #b5bac1; --code-surface: #f2f3f5; --code-border: #e3e5e8;
  --code-text: #2e3338; --embed-field-name: #060607; --link-text: #006ce7;
  --link-accent: #006ce7; --scrollbar-thumb: #c4c9ce; --disclaimer-bg: #fdf1dc;
  --disclaimer-text: #313338; --spoiler-cover-bg: #e3e5e8; --spoiler-media-bg: #c4c9ce;
  --button-secondary-surface: #d7d9dc;
}
.channel-message:hover, .channel-message:focus-within { --button-secondary-surface: #c4c9ce; }
.message-content { color: #313338; }
.button-style-2, .button-secondary, .button-style-5, .link-button, .button-style-6 {
  color: #313338;
}
.mention, .command-mention { color: #4752c4; background: rgba(88, 101, 242, .15) !important; }
"""


# The page dims every button while it waits for the bot (its "Updating viewport" state, which
# a headless capture never leaves): buttons look as they do on Discord, the disabled ones still
# dimmed.
READY = """
button.component-button[aria-disabled="true"]:not(:disabled) { opacity: 1; cursor: pointer; }
"""


@contextmanager
def theme(light: bool) -> Iterator[None]:
    """While inside, the preview serves its stylesheet with READY, and the light palette if
    asked. Set before Chromium loads the page."""
    real = _server.PreviewServer._static

    async def static(self: Any, request: Any) -> Any:
        response = await real(self, request)
        if request.path == "/preview.css":
            response.text = response.text + READY + (LIGHT if light else "")
        return response

    _server.PreviewServer._static = static  # type: ignore[method-assign]
    try:
        yield
    finally:
        _server.PreviewServer._static = real  # type: ignore[method-assign]


async def shoot(chromium: str, url: str, out: Path, profile: Path, width: int, height: int) -> None:
    """One screenshot of the page at `url`, `width` × `height` CSS pixels."""
    proc = await asyncio.create_subprocess_exec(
        chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={profile}", f"--window-size={width},{height}",
        "--virtual-time-budget=8000", f"--screenshot={out}", url,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    if await proc.wait() != 0 or not out.exists():
        raise SystemExit(f"chromium failed to write {out}")
    print("wrote", out.relative_to(ROOT) if out.is_relative_to(ROOT) else out)


async def capture(
    env: Any, channel: Any, members: Sequence[Any], chromium: str, out: Path, profile: Path,
    width: int, height: int, *, light: bool = False,
) -> None:  # fmt: skip
    """The channel as `members` see it (the page opens at the newest message), `width` ×
    `height`, in the dark or light theme, written to `out`. A fresh preview each time."""
    with theme(light):
        async with env.preview(
            channel, viewers=members, layout="channel", display="fixed",
            width=width, height=height - toolbar(width), port=0,
        ) as preview:  # fmt: skip
            await shoot(chromium, preview.url, out, profile, width, height)


def toolbar(width: int) -> int:
    """The height of SimCord's toolbar above the preview's fixed viewport (two rows on a
    phone): the shot is the toolbar and the viewport, so the viewport is that much shorter, or
    the shot would lose its bottom (the newest message's end, the message box)."""
    return 112 if width < 600 else 42


Shot = Callable[..., Awaitable[None]]


def shooter(
    env: Any, channel: Any, viewers: Sequence[Any], chromium: str, out: Path, profile: Path
) -> Shot:
    """`shot(name, width, height, light=False)`: the channel as `viewers` see it, written to
    OUT/name.png."""

    async def shot(name: str, width: int, height: int, *, light: bool = False) -> None:
        target = out / f"{name}.png"
        await capture(env, channel, viewers, chromium, target, profile, width, height, light=light)

    return shot


def arguments(doc: str | None, **extra: dict[str, Any]) -> argparse.Namespace:
    """--chromium and --out (docs/screenshots by default), and any `extra` options."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    for name, options in extra.items():
        parser.add_argument(f"--{name}", **options)
    args = parser.parse_args()
    args.out = args.out.resolve()
    return args
