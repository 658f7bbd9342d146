"""Write `match_equity.json` from a published match equity table in gnubg's XML format:
`python -m hraj.games.backgammon.match_equity_build [XML] [OUTPUT]`.

The default input is the Kazaross-XG2 table as GNU Backgammon's data package ships it
(Debian's `gnubg-data`: `/usr/share/gnubg/met/Kazaross-XG2.xml`). Only the numbers are
read; the table's name, description and notice travel with them into the JSON, as the
notice asks ("Copying and distribution of this file, with or without modification, are
permitted in any medium without royalty provided the copyright notice and this notice
are preserved").
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from xml.etree import ElementTree

from hraj.games.backgammon.match_equity import DATA_FILE

DEFAULT_SOURCE = Path("/usr/share/gnubg/met/Kazaross-XG2.xml")


def rows(element: ElementTree.Element | None) -> list[list[float]]:
    if element is None:
        raise ValueError("the table is missing")
    return [[float(cell.text or "nan") for cell in row.iter("me")] for row in element.iter("row")]


def convert(source: Path) -> dict[str, object]:
    text = source.read_text(encoding="utf-8")
    notice = re.search(r"<!--(.*?)-->", text, re.DOTALL)
    root = ElementTree.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", text))
    pre = rows(root.find("pre-crawford-table"))
    post = rows(root.find("post-crawford-table"))
    length = len(pre)
    if any(len(row) != length for row in pre) or len(post) != 1 or len(post[0]) != length:
        raise ValueError(f"{source}: expected a {length}x{length} table and one post-Crawford row")
    return {
        "name": root.findtext("info/name", "").strip(),
        "description": root.findtext("info/description", "").strip(),
        "source": f"GNU Backgammon's data files, met/{source.name}",
        "notice": " ".join(notice.group(1).split()) if notice else "",
        "length": length,
        "pre_crawford": pre,
        "post_crawford": post[0],
    }


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SOURCE
    output = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).with_name(DATA_FILE)
    data = convert(source)
    output.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{data['name']}: {data['length']}-point table written to {output}")


if __name__ == "__main__":
    main()
