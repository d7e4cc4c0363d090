"""A printable A4 sheet of QR labels, one per physical card and token of a game.

What a sheet holds, its heading and each label's caption come from the game's CardHooks
(its `sheets` and `caption`): a game whose labels do not fit on one page splits them into
sheets by kind, and a game with valued cards may ask for its sheet to be printed several
times (its note says so).

Each label (32 × 44 mm) fits on a 63 × 88 mm card beside the tactile stickers: a QR code
of the card's payload (see payload.py) and a short caption for the sighted volunteer who
sticks it. The sheet is laid out once (`layout`) and written either as SVG or as a
one-page PDF; both writers are hand-made because segno draws one code per file.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal
from xml.sax.saxutils import escape, quoteattr

import segno

from companion.cards.payload import (
    PAYLOAD_VERSION,
    CardRef,
    all_cards,
    default_game,
    format_payload,
    hooks,
)
from companion.games.protocol import Sheet
from stickers import Lang

Format = Literal["svg", "pdf"]
FORMATS: tuple[Format, ...] = ("svg", "pdf")

PAGE_W, PAGE_H = 210.0, 297.0  # A4, millimetres
CELL_W, CELL_H = 32.0, 44.0  # one label; a card is 63 × 88
COLUMNS = 6
TOP = 20.0  # below the heading
QR_SIDE = 26.0  # including the 4-module quiet zone scanners need
QR_BORDER = 4
QR_ERROR = "q"  # recovers 25% damage: labels get handled at every turn
CAPTION_SIZE = 2.5  # mm (about 7 pt)
PAYLOAD_SIZE = 2.0
CHAR_WIDTH = 0.55  # average glyph width in em, to squeeze captions that would overflow

# The heading of a sheet whose game gives none of its own.
_HEADING: dict[str, str] = {
    "en": "{game}: {n} QR labels ({version}), one per card or token. "
          "Cut along the dashed lines.",
    "fr": "{game} : {n} étiquettes QR ({version}), une par carte ou jeton. "
          "Découpez le long des pointillés.",
}  # fmt: skip


def caption(ref: CardRef, lang: Lang = "en") -> tuple[str, str, str]:
    """Three short lines naming the card, its colour symbol or its number sticker."""
    return hooks(ref.game).caption(ref, lang)


def default_kinds(game: str) -> tuple[str, ...]:
    """The kinds on the game's first sheet, printed when no kinds are asked for."""
    return next(iter(hooks(game).sheets.values())).kinds


def sheet_of(labels: list[Label]) -> Sheet | None:
    """The game's sheet these labels were laid out as (by the first label's kind)."""
    if not labels:
        return None
    first = labels[0].ref
    return next((s for s in hooks(first.game).sheets.values() if first.kind in s.kinds), None)


@dataclass(frozen=True)
class Label:
    """One label placed on the page (millimetres from the top-left corner)."""

    ref: CardRef
    payload: str
    x: float
    y: float
    modules: tuple[bytes, ...]  # QR rows with the quiet zone, 1 = dark
    lines: tuple[str, str, str]


def layout(
    game: str | None = None, lang: Lang = "en", kinds: tuple[str, ...] | None = None
) -> list[Label]:
    """Every card of one copy of `game` (default: that of companion play) of `kinds` (else
    those of the game's first sheet), in a grid of COLUMNS labels per row."""
    game = default_game() if game is None else game
    refs = all_cards(game, kinds if kinds is not None else default_kinds(game))
    if not refs:
        raise ValueError(f"{game} has no card of kind {', '.join(kinds or ())}")
    rows = -(-len(refs) // COLUMNS)
    if TOP + rows * CELL_H > PAGE_H:
        raise ValueError(f"{len(refs)} labels do not fit on one A4 page")
    left = (PAGE_W - COLUMNS * CELL_W) / 2
    labels = []
    for n, ref in enumerate(refs):
        payload = format_payload(ref)
        qr = segno.make(payload, error=QR_ERROR, boost_error=False, micro=False)
        modules = tuple(bytes(row) for row in qr.matrix_iter(scale=1, border=QR_BORDER))
        row, col = divmod(n, COLUMNS)
        labels.append(
            Label(ref, payload, left + col * CELL_W, TOP + row * CELL_H, modules,
                  caption(ref, lang))
        )  # fmt: skip
    return labels


def heading(labels: list[Label], lang: Lang = "en") -> str:
    game = labels[0].ref.game.capitalize() if labels else ""
    sheet = sheet_of(labels)
    template = (sheet.heading.get(lang) if sheet else None) or _HEADING[lang]
    return template.format(game=game, n=len(labels), version=PAYLOAD_VERSION)


def note(labels: list[Label], lang: Lang = "en") -> str | None:
    """A second heading line, when the game's sheet has one (e.g. how many to print)."""
    sheet = sheet_of(labels)
    return sheet.note.get(lang) if sheet else None


def _runs(row: bytes) -> Iterable[tuple[int, int]]:
    """(start, length) of each run of dark modules in a row."""
    start = None
    for x, dark in enumerate((*row, 0)):
        if dark and start is None:
            start = x
        elif not dark and start is not None:
            yield start, x - start
            start = None


def _fit(text: str, size: float, width: float) -> float | None:
    """The width to squeeze `text` into if it would overflow, else None."""
    return width if len(text) * size * CHAR_WIDTH > width else None


def _caption_rows(label: Label) -> list[tuple[str, float, float, str]]:
    """(text, y offset, size, style) of the caption lines and the payload line."""
    top = 2 + QR_SIDE + 3.5
    rows = [(line, top + 3.2 * i, CAPTION_SIZE, "bold" if i == 0 else "") for i, line in
            enumerate(label.lines)]  # fmt: skip
    rows.append((label.payload, top + 3.2 * 3, PAYLOAD_SIZE, "mono"))
    return rows


def to_svg(labels: list[Label], lang: Lang = "en") -> str:
    """The sheet as an SVG document (A4, user units are millimetres)."""
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{PAGE_W:g}mm" height="{PAGE_H:g}mm" '
        f'viewBox="0 0 {PAGE_W:g} {PAGE_H:g}" font-family="Helvetica, Arial, sans-serif">',
        f"<title>{escape(heading(labels, lang))}</title>",
        '<rect width="100%" height="100%" fill="#fff"/>',
        f'<text x="{(PAGE_W - COLUMNS * CELL_W) / 2:g}" y="12" font-size="3.5">'
        f"{escape(heading(labels, lang))}</text>",
    ]
    extra = note(labels, lang)
    if extra:
        squeeze = _fit(extra, 3, COLUMNS * CELL_W)
        fit = f' textLength="{squeeze:g}" lengthAdjust="spacingAndGlyphs"' if squeeze else ""
        out.append(f'<text class="note" x="{(PAGE_W - COLUMNS * CELL_W) / 2:g}" y="16.5" '
                   f'font-size="3"{fit}>{escape(extra)}</text>')
    for label in labels:
        out += _svg_label(label)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_label(label: Label) -> list[str]:
    """One label as an SVG group: its cut line, its QR code and its caption rows."""
    size = len(label.modules)
    unit = QR_SIDE / size
    path = "".join(
        f"M{x} {y}h{n}v1h-{n}z" for y, row in enumerate(label.modules) for x, n in _runs(row)
    )
    out = [
        f'<g class="label" data-payload={quoteattr(label.payload)} '
        f'transform="translate({label.x:g} {label.y:g})">',
        f"<title>{escape(label.payload)}</title>",
        f'<rect class="cut" width="{CELL_W:g}" height="{CELL_H:g}" fill="none" '
        'stroke="#999" stroke-width="0.15" stroke-dasharray="1 1"/>',
        f'<g class="qr" transform="translate({(CELL_W - QR_SIDE) / 2:g} 2) scale({unit:.6g})">'
        f'<rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path d="{path}" fill="#000" shape-rendering="crispEdges"/></g>',
    ]
    for text, y, font, style in _caption_rows(label):
        attrs = f'x="3" y="{y:g}" font-size="{font:g}"'
        if style == "bold":
            attrs += ' font-weight="bold"'
        if style == "mono":
            attrs += ' font-family="Courier, monospace"'
        squeeze = _fit(text, font, CELL_W - 6)
        if squeeze:
            attrs += f' textLength="{squeeze:g}" lengthAdjust="spacingAndGlyphs"'
        out.append(f'<text class="caption" {attrs}>{escape(text)}</text>')
    out.append("</g>")
    return out


def _pdf_text(text: str) -> str:
    """A PDF string literal in WinAnsiEncoding (the standard fonts' accented Latin)."""
    raw = text.encode("cp1252", errors="replace").decode("latin-1")
    return "(" + raw.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


PDF_MM = 72 / 25.4  # PDF points in a millimetre
PDF_FONTS = {"F1": "Helvetica", "F2": "Helvetica-Bold", "F3": "Courier"}  # the standard ones


def to_pdf(labels: list[Label], lang: Lang = "en") -> bytes:
    """The sheet as a one-page PDF using only the standard fonts (nothing embedded)."""
    return _pdf_document(_pdf_drawing(labels, lang))


def _pdf_drawing(labels: list[Label], lang: Lang) -> bytes:
    """The page's content stream, compressed: heading, note, and each label."""
    mm = PDF_MM
    # Work in millimetres from the top-left, like the SVG; text is flipped back upright.
    ops = [f"{mm:.5f} 0 0 {-mm:.5f} 0 {PAGE_H * mm:.3f} cm"]

    def text(s: str, x: float, y: float, size: float, font: str, width: float | None) -> None:
        scale = ""
        if width:
            scale = f"{100 * width / (len(s) * size * CHAR_WIDTH):.1f} Tz "
        ops.append(
            f"BT /{font} 1 Tf {scale}{size:g} 0 0 {-size:g} {x:.3f} {y:.3f} Tm {_pdf_text(s)} Tj ET"
        )

    text(heading(labels, lang), (PAGE_W - COLUMNS * CELL_W) / 2, 12, 3.5, "F1", None)
    extra = note(labels, lang)
    if extra:
        text(extra, (PAGE_W - COLUMNS * CELL_W) / 2, 16.5, 3, "F1",
             _fit(extra, 3, COLUMNS * CELL_W))
    for label in labels:
        ops.append("q 0.6 G 0.15 w [1 1] 0 d")
        ops.append(f"{label.x:.3f} {label.y:.3f} {CELL_W:g} {CELL_H:g} re S Q")
        unit = QR_SIDE / len(label.modules)
        qx, qy = label.x + (CELL_W - QR_SIDE) / 2, label.y + 2
        ops.append("0 g")
        for y, row in enumerate(label.modules):
            for x, n in _runs(row):
                ops.append(f"{qx + x * unit:.3f} {qy + y * unit:.3f} {n * unit:.3f} {unit:.3f} re")
        ops.append("f")
        for s, y, size, style in _caption_rows(label):
            font = {"bold": "F2", "mono": "F3"}.get(style, "F1")
            text(s, label.x + 3, label.y + y, size, font, _fit(s, size, CELL_W - 6))
    return zlib.compress("\n".join(ops).encode("latin-1"))


def _pdf_document(content: bytes) -> bytes:
    """A one-page PDF file around a compressed content stream: its objects, the fonts and
    the cross-reference table."""
    mm, fonts = PDF_MM, PDF_FONTS
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_W * mm:.2f} {PAGE_H * mm:.2f}] "
            "/Resources << /Font << "
            + " ".join(f"/{key} {5 + i} 0 R" for i, key in enumerate(fonts))
            + " >> >> /Contents 4 0 R >>"
        ).encode(),
        f"<< /Length {len(content)} /Filter /FlateDecode >>\nstream\n".encode()
        + content
        + b"\nendstream",
        *(
            f"<< /Type /Font /Subtype /Type1 /BaseFont /{name} /Encoding /WinAnsiEncoding >>"
            .encode()
            for name in fonts.values()
        ),
    ]
    pdf = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(pdf))
        pdf += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(pdf)
    pdf += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    pdf += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    pdf += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    ).encode()
    return bytes(pdf)


def write_labels(
    path: str, game: str | None = None, fmt: Format = "svg", lang: Lang = "en",
    kinds: tuple[str, ...] | None = None,
) -> int:
    """Write the sheet to `path`; returns the number of labels."""
    if fmt not in FORMATS:  # before anything is computed or a file is created
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    labels = layout(game, lang, kinds)
    if fmt == "svg":
        with open(path, "w", encoding="utf-8") as f:
            f.write(to_svg(labels, lang))
    elif fmt == "pdf":
        with open(path, "wb") as f:
            f.write(to_pdf(labels, lang))
    else:
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    return len(labels)
