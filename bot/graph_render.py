"""Draw the relationship graph (a :class:`~bot.views.GraphView`) as a PNG with Pillow.

Nodes sit on a circle in the order the view gives them; each edge is an arrow from source to target, coloured
by attitude, labelled ``owes favour (+40)``. The same view always gives the same bytes (no randomness, no
clock), so a picture can be compared in tests and cached.
"""

from __future__ import annotations

import io
import logging
import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import ImageDraw, ImageFont

    from bot.views import EdgeView, GraphView

_log = logging.getLogger(__name__)

BACKGROUND = (32, 34, 37)
NODE_FILL = (88, 101, 242)
NODE_TEXT = (255, 255, 255)
LABEL_TEXT = (220, 221, 222)
LABEL_BOX = (47, 49, 54)
NODE_RADIUS = 34
MAX_NODES = 40


def edge_label(edge: EdgeView) -> str:
    """Return the label drawn on an edge, e.g. ``owes favour (+40)``."""
    return f"{edge.kind.replace('-', ' ').replace('_', ' ')} ({edge.attitude:+d})"


def attitude_colour(attitude: int) -> tuple[int, int, int]:
    """Red for hostile, grey for neutral, green for friendly, blended by the attitude -100..100."""
    a = max(-100, min(100, attitude)) / 100
    grey = (150, 150, 150)
    end = (87, 242, 135) if a >= 0 else (237, 66, 69)
    t = abs(a)
    return tuple(round(g + (e - g) * t) for g, e in zip(grey, end, strict=True))  # type: ignore[return-value]


def _node_names(view: GraphView) -> list[str]:
    names = list(dict.fromkeys(view.nodes))
    for edge in view.edges:
        for name in (edge.source, edge.target):
            if name not in names:
                names.append(name)
    return names[:MAX_NODES]


def _short(name: str, limit: int = 14) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def render_graph(view: GraphView, *, size: int = 900) -> bytes:
    """Return the graph drawn as PNG bytes (a titled empty canvas when there are no edges)."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", (size, size), BACKGROUND)
    draw = ImageDraw.Draw(image)
    try:
        font = ImageFont.load_default(size=15)
    except (TypeError, OSError):  # Pillow without FreeType: the fixed bitmap font
        font = ImageFont.load_default()
    names = _node_names(view)
    centre = size / 2
    radius = size / 2 - NODE_RADIUS - 60
    positions: dict[str, tuple[float, float]] = {}
    for index, name in enumerate(names):
        angle = -math.pi / 2 + 2 * math.pi * index / max(1, len(names))
        if len(names) == 1:
            positions[name] = (centre, centre)
        else:
            positions[name] = (centre + radius * math.cos(angle), centre + radius * math.sin(angle))

    if not view.edges:
        message = "No relationships known yet." if not names else "No relationships between these characters."
        _centred_text(draw, (centre, 30), message, font, LABEL_TEXT)

    labels: list[tuple[float, float, str, tuple[int, int, int]]] = []
    for edge in view.edges:
        if edge.source not in positions or edge.target not in positions or edge.source == edge.target:
            continue
        labels.append(_draw_edge(draw, positions[edge.source], positions[edge.target], edge))
    # Labels go on top of every line so no arrow crosses a label's text.
    for x, y, label, colour in labels:
        box = draw.textbbox((x, y), label, font=font, anchor="mm")
        draw.rectangle((box[0] - 3, box[1] - 2, box[2] + 3, box[3] + 2), fill=LABEL_BOX)
        draw.text((x, y), label, fill=colour, font=font, anchor="mm")

    for name, (x, y) in positions.items():
        draw.ellipse(
            (x - NODE_RADIUS, y - NODE_RADIUS, x + NODE_RADIUS, y + NODE_RADIUS),
            fill=NODE_FILL,
            outline=NODE_TEXT,
            width=2,
        )
        _centred_text(draw, (x, y + NODE_RADIUS + 12), _short(name, 24), font, NODE_TEXT)
        _centred_text(draw, (x, y), _initials(name), font, NODE_TEXT)

    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def _initials(name: str) -> str:
    parts = [p for p in name.replace("-", " ").split() if p]
    return "".join(p[0].upper() for p in parts[:3]) or "?"


def _draw_edge(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    edge: EdgeView,
) -> tuple[float, float, str, tuple[int, int, int]]:
    """Draw the arrow for ``edge``; return where its label goes, the label and its colour."""
    colour = attitude_colour(edge.attitude)
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    # Offset each direction to its own side so A->B and B->A are both visible.
    ox, oy = -uy * 8, ux * 8
    x1, y1 = start[0] + ux * NODE_RADIUS + ox, start[1] + uy * NODE_RADIUS + oy
    x2, y2 = end[0] - ux * NODE_RADIUS + ox, end[1] - uy * NODE_RADIUS + oy
    draw.line((x1, y1, x2, y2), fill=colour, width=3)
    head = 14
    left = (x2 - ux * head - uy * head / 2, y2 - uy * head + ux * head / 2)
    right = (x2 - ux * head + uy * head / 2, y2 - uy * head - ux * head / 2)
    draw.polygon([(x2, y2), left, right], fill=colour)
    # Each direction's label sits nearer its source and on its own side of the line.
    mx, my = x1 + (x2 - x1) * 0.4 + ox * 2.5, y1 + (y2 - y1) * 0.4 + oy * 2.5
    return mx, my, edge_label(edge), colour


def _centred_text(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    text: str,
    font: ImageFont.ImageFont | ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
) -> None:
    draw.text(at, text, fill=fill, font=font, anchor="mm")
