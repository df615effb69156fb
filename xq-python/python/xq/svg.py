"""SVG pictures of boards (what Jupyter shows for a ``Board``).

``xq.svg.board(board)`` returns the SVG text: the 9x10 points with the river and its
words, the palace diagonals, the pieces as discs with their Chinese characters (red or
black), file letters and rank digits, and the last move marked. python-chess's
``chess.svg.board`` in shape.
"""

from typing import Iterable, Optional, Tuple
from xml.sax.saxutils import escape

from ._xq import Board, Move

__all__ = ["board"]

_RED = "#c8102e"
_BLACK = "#1a1a1a"
_LINE = "#5b3a1a"
_WOOD = "#f2d7a0"
_DISC = "#fbeed2"
_MARK = "#3f8f3f"


def board(
    board: Optional[Board] = None,
    *,
    size: Optional[int] = None,
    orientation: bool = True,
    lastmove: Optional[Move] = None,
    squares: Iterable[int] = (),
    arrows: Iterable[Tuple[int, int]] = (),
    coordinates: bool = True,
) -> str:
    """The SVG text of a board.

    ``board``: the board to draw (None: the empty board). ``size``: the width in pixels
    (the picture scales; None leaves it to the page). ``orientation``: ``xq.RED`` (True)
    puts Red at the bottom, ``xq.BLACK`` Black. ``lastmove``: the move to mark (by
    default the board's last move). ``squares``: squares to mark with a dot. ``arrows``:
    (from, to) square pairs to draw as arrows. ``coordinates``: file letters and rank
    digits around the board.
    """
    s = 40  # distance between two points
    m = 40 if coordinates else 26  # margin around the points
    width, height = 8 * s + 2 * m, 9 * s + 2 * m

    def xy(square: int) -> Tuple[float, float]:
        f, r = square % 9, square // 9
        if not orientation:
            f, r = 8 - f, 9 - r
        return m + f * s, m + (9 - r) * s

    out = []
    size_attr = f' width="{size}" height="{size * height // width}"' if size else ""
    out.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {width} {height}"{size_attr}>'
    )
    out.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="{_WOOD}"/>')
    lines = []
    x: float
    y: float
    for r in range(10):  # ranks
        y = m + r * s
        lines.append(f"M{m},{y}H{m + 8 * s}")
    for f in range(9):  # files, cut by the river except at the edges
        x = m + f * s
        if f in (0, 8):
            lines.append(f"M{x},{m}V{m + 9 * s}")
        else:
            lines.append(f"M{x},{m}V{m + 4 * s}M{x},{m + 5 * s}V{m + 9 * s}")
    for top in (0, 7):  # palace diagonals, in screen ranks
        top_y, bottom_y = m + top * s, m + (top + 2) * s
        lines.append(f"M{m + 3 * s},{top_y}L{m + 5 * s},{bottom_y}M{m + 5 * s},{top_y}L{m + 3 * s},{bottom_y}")
    out.append(f'<path d="{" ".join(lines)}" stroke="{_LINE}" stroke-width="1.5" fill="none"/>')
    out.append(
        f'<rect x="{m - 4}" y="{m - 4}" width="{8 * s + 8}" height="{9 * s + 8}" '
        f'stroke="{_LINE}" stroke-width="2.5" fill="none"/>'
    )
    river_y = m + 4.5 * s + s * 0.22
    font = 'font-family="Noto Serif CJK SC, Source Han Serif, SimSun, KaiTi, serif"'
    out.append(
        f'<text x="{m + 2 * s}" y="{river_y}" {font} font-size="{s * 0.6}" text-anchor="middle" fill="{_LINE}">楚 河</text>'
    )
    out.append(
        f'<text x="{m + 6 * s}" y="{river_y}" {font} font-size="{s * 0.6}" text-anchor="middle" fill="{_LINE}">漢 界</text>'
    )
    if coordinates:
        files = "abcdefghi" if orientation else "ihgfedcba"
        for i, name in enumerate(files):
            out.append(
                f'<text x="{m + i * s}" y="{m + 9 * s + m * 0.7}" font-family="sans-serif" font-size="{s * 0.35}" text-anchor="middle" fill="{_LINE}">{name}</text>'
            )
        for i in range(10):
            rank = 9 - i if orientation else i
            out.append(
                f'<text x="{m * 0.35}" y="{m + i * s + s * 0.12}" font-family="sans-serif" font-size="{s * 0.35}" text-anchor="middle" fill="{_LINE}">{rank}</text>'
            )
    if lastmove is None and board is not None and board.move_stack:
        lastmove = board.peek()
    if lastmove is not None:
        for sq in (lastmove.from_square, lastmove.to_square):
            x, y = xy(sq)
            out.append(
                f'<rect class="lastmove" x="{x - s / 2}" y="{y - s / 2}" width="{s}" height="{s}" '
                f'fill="{_MARK}" fill-opacity="0.35" rx="4"/>'
            )
    if board is not None:
        for sq, piece in sorted(board.piece_map().items()):
            x, y = xy(sq)
            color = _RED if piece.color else _BLACK
            out.append(
                f'<g class="piece {"red" if piece.color else "black"}">'
                f'<circle cx="{x}" cy="{y}" r="{s * 0.44}" fill="{_DISC}" stroke="{color}" stroke-width="2"/>'
                f'<circle cx="{x}" cy="{y}" r="{s * 0.36}" fill="none" stroke="{color}" stroke-width="1"/>'
                f'<text x="{x}" y="{y + s * 0.17}" {font} font-size="{s * 0.48}" font-weight="bold" '
                f'text-anchor="middle" fill="{color}">{escape(piece.unicode_symbol())}</text></g>'
            )
    for sq in squares:
        x, y = xy(sq)
        out.append(f'<circle cx="{x}" cy="{y}" r="{s * 0.12}" fill="{_MARK}"/>')
    for a, b in arrows:
        (x0, y0), (x1, y1) = xy(a), xy(b)
        out.append(
            f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="{_MARK}" stroke-width="{s * 0.15}" '
            f'stroke-opacity="0.8" marker-end="url(#xq-arrowhead)"/>'
        )
    if arrows:
        out.insert(
            1,
            f'<defs><marker id="xq-arrowhead" markerWidth="4" markerHeight="4" refX="2" refY="2" orient="auto">'
            f'<path d="M0,0L4,2L0,4z" fill="{_MARK}"/></marker></defs>',
        )
    out.append("</svg>")
    return "".join(out)
