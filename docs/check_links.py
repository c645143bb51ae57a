#!/usr/bin/env python3
"""Checks the generated course book: every local link and image of every HTML page must
point to a file that exists, and every #anchor into a local page must exist there.

Usage: python3 docs/check_links.py <build dir>/docs/html

Prints each broken link (page, target) and exits with status 1 if there is one.
"""
import html.parser
import pathlib
import sys
import urllib.parse


# Doxygen 1.9.4 puts a "Classes" link to #nested-classes at the top of a class page when the
# class has a private nested type, but omits the section itself (private members are not
# extracted). That link is Doxygen's own navigation, not the book's content: ignore it.
DOXYGEN_SUMMARY_ANCHORS = {"nested-classes"}


class LinkCollector(html.parser.HTMLParser):
    """Collects href/src targets and the ids/names a page defines."""

    def __init__(self):
        super().__init__()
        self.targets = []
        self.anchors = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name in ("href", "src") and tag in ("a", "img", "link", "script", "object",
                                                   "iframe", "area"):
                self.targets.append(value)
            if name in ("id", "name"):
                self.anchors.add(value)


def parse(path, cache):
    if path not in cache:
        collector = LinkCollector()
        collector.feed(path.read_text(encoding="utf-8", errors="replace"))
        cache[path] = collector
    return cache[path]


def main():
    arguments = sys.argv[1:]
    if arguments[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(arguments) != 1 or any(argument.startswith("-") for argument in arguments):
        print(f"{sys.argv[0]}: takes one argument, the book's HTML folder, got {' '.join(arguments) or 'none'} "
              "(see --help)", file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1]).resolve()
    pages = sorted(root.glob("*.html"))
    if not pages:
        print("no HTML pages in %s" % root)
        return 2
    cache, broken, checked = {}, [], 0
    for page in pages:
        for target in parse(page, cache).targets:
            parsed = urllib.parse.urlparse(target)
            if parsed.scheme or target.startswith(("//", "javascript:", "mailto:")):
                continue  # external or scripted: not ours to check
            checked += 1
            file_part = urllib.parse.unquote(parsed.path)
            destination = (page.parent / file_part).resolve() if file_part else page
            if not destination.exists():
                broken.append((page.name, target, "missing file"))
                continue
            if parsed.fragment in DOXYGEN_SUMMARY_ANCHORS and destination == page:
                continue
            if parsed.fragment and destination.suffix == ".html":
                if parsed.fragment not in parse(destination, cache).anchors:
                    broken.append((page.name, target, "missing anchor"))
    for page, target, why in broken:
        print("%s: %s (%s)" % (page, target, why))
    print("%d pages, %d local links checked, %d broken" % (len(pages), checked, len(broken)))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
