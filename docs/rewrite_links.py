#!/usr/bin/env python3
"""Makes the links of the lesson pages work in the generated book.

Usage: python3 docs/rewrite_links.py <repository root> <build dir>/docs/html

Each step's README.md is written for GitHub, where a link such as `tiled_checked.cuh`,
`figures/block00_phase1.svg` or `results/bench.csv` points to a file next to the README.
Doxygen turns the README into a page at the root of the HTML folder and copies such links
unchanged, so they would point nowhere. This script rewrites, in each lesson page:

* a link to a documented source file -> the file's page in the API reference;
* a link into the step's `results/` folder (`lab/results/` where the step has a lab) -> the
  section of that run on the step's results page or on its page of older runs (else the
  results page);
* a link to an image that Doxygen copied into the HTML folder -> that copy;
* a link to a section of another page (`../docs/notes.md#notes_002`) -> that page's anchor;
* a link to any other text file of the repository (a script, a CMake file) -> a plain page
  `src_<name>.html` written here, which shows the file as it is;
* a link to a file that does not exist is left alone, so that check_links.py fails on it.

It also gives every figure of the book (all pages) its caption as alt text, which Doxygen
leaves empty.

The same holds for every README.md one or two folders below the root that the book includes
(the grading guide, grading/README.md, links to its Python modules; the READMEs of a step's
rooms, such as step4_boundary_checks/lab/README.md).

Links between READMEs (`../step4_boundary_checks/README.md`) are resolved by Doxygen itself.
"""
import html as html_escape
import pathlib
import re
import sys
import urllib.parse

HREF = re.compile(r'(href|src)="([^"]*)"')


def doxygen_name(relative_path):
    """Doxygen's file-page name of a path: '_' -> '__', '.' -> '_8', '/' -> '_2'."""
    escaped = relative_path.replace("_", "__").replace(".", "_8").replace("/", "_2")
    return escaped + ".html"


def file_page(html, path_in_repo):
    """The HTML page documenting @p path_in_repo, trying the longest path suffix first (the
    name Doxygen uses when two files share a base name)."""
    parts = path_in_repo.split("/")
    for start in range(len(parts)):
        candidate = html / doxygen_name("/".join(parts[start:]))
        if candidate.exists():
            return candidate.name
    return None


def slug(text):
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


# Files shown as plain source pages when a lesson links to them: text, and not too large.
SOURCE_PAGE_SUFFIXES = {".py", ".sh", ".cmake", ".txt", ".json", ".in", ".cfg", ".toml"}
SOURCE_PAGE_MAX_BYTES = 512 * 1024


def source_page(repo, html, resolved):
    """Writes (once) a page that shows the repository file @p resolved as plain text and
    returns its name, or None when the file is not a small text file of the repository."""
    suffix_ok = resolved.suffix in SOURCE_PAGE_SUFFIXES or resolved.name == "CMakeLists.txt"
    if not (resolved.is_file() and suffix_ok) or resolved.stat().st_size > SOURCE_PAGE_MAX_BYTES:
        return None
    relative = resolved.relative_to(repo).as_posix()
    name = "src_" + doxygen_name(relative)
    page = html / name
    if not page.exists():
        text = resolved.read_text(encoding="utf-8", errors="replace")
        page.write_text(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title>"
            "<link href=\"doxygen.css\" rel=\"stylesheet\" type=\"text/css\"/></head>\n"
            "<body><div class=\"contents\"><h1>%s</h1>\n<pre class=\"fragment\">%s</pre>"
            "</div></body></html>\n"
            % (relative, relative, html_escape.escape(text)), encoding="utf-8")
    return name


def markdown_page(html, markdown):
    """The book page Doxygen wrote for @p markdown: the label of its first heading
    (`# Title {#label}`), else md_<path with / as _>."""
    label = re.search(r"^#[^\n]*\{#([\w-]+)\}", markdown.read_text(encoding="utf-8"), re.M)
    return label.group(1) + ".html" if label else None


def step_results_dir(repo, readme_dir):
    """The committed results of the step whose folder holds @p readme_dir: its `lab/results/`
    when it has a lab, else its `results/`."""
    step = repo / readme_dir.relative_to(repo).parts[0]
    lab = step / "lab" / "results"
    return (lab if lab.is_dir() else step / "results").resolve()


def rewrite_target(repo, html, step_dir, step_number, target):
    parsed = urllib.parse.urlparse(target)
    if parsed.scheme or target.startswith(("#", "//", "mailto:", "javascript:")):
        return target
    path = urllib.parse.unquote(parsed.path)
    if not path or (html / path).exists():
        return target
    resolved = (step_dir / path).resolve()
    # A link to a section of another book page (`../docs/notes.md#notes_002`): Doxygen
    # resolves such links only without the #section.
    if resolved.suffix == ".md" and parsed.fragment and resolved.is_file():
        page = markdown_page(html, resolved)
        if page and (html / page).exists():
            return page + "#" + parsed.fragment
    try:
        relative = resolved.relative_to(repo).as_posix()
    except ValueError:
        return target
    results_dir = step_results_dir(repo, step_dir)
    if resolved == results_dir or results_dir in resolved.parents:
        # The run's section on the results page, or on its page of older runs.
        run = resolved.relative_to(results_dir).with_suffix("").as_posix() \
            if resolved != results_dir else ""
        anchor = "results_step%s_%s" % (step_number, slug(run))
        pages = ["results_step%s.html" % step_number, "results_step%s_archive.html" % step_number]
        for page in pages:
            if run and (html / page).exists() and 'id="%s"' % anchor in (html / page).read_text(
                    encoding="utf-8", errors="replace"):
                return page + "#" + anchor
        return pages[0] if (html / pages[0]).exists() else target
    documented = file_page(html, relative)
    if documented:
        return documented
    if (html / resolved.name).exists() and resolved.suffix in (".svg", ".png", ".jpg"):
        return resolved.name
    shown = source_page(repo, html, resolved)
    return shown if shown else target


def main():
    arguments = sys.argv[1:]
    if arguments[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(arguments) != 2 or any(argument.startswith("-") for argument in arguments):
        print(f"{sys.argv[0]}: takes two arguments, the repository and the book's HTML folder, got {' '.join(arguments) or 'none'} "
              "(see --help)", file=sys.stderr)
        return 2
    repo = pathlib.Path(sys.argv[1]).resolve()
    html = pathlib.Path(sys.argv[2]).resolve()
    changed = 0
    for readme in sorted(repo.glob("*/README.md")) + sorted(repo.glob("*/*/README.md")):
        step_dir = readme.parent
        folder = step_dir.relative_to(repo).as_posix()
        page = html / ("md_%s_README.html" % folder.replace("/", "_"))
        if not page.exists():
            continue
        match = re.match(r"step(\d+)_", folder)
        step_number = match.group(1) if match else "?"
        text = page.read_text(encoding="utf-8")

        def replace(found):
            nonlocal changed
            new = rewrite_target(repo, html, step_dir, step_number, found.group(2))
            changed += new != found.group(2)
            return '%s="%s"' % (found.group(1), new)

        page.write_text(HREF.sub(replace, text), encoding="utf-8")
    print("rewrote %d links of the lesson pages" % changed)
    described = sum(describe_images(page) for page in html.glob("*.html"))
    print("gave %d figures their caption as alt text" % described)
    return 0


IMAGE_TAG = re.compile(r'<img ([^>]*?)alt=""([^>]*)>')
CAPTION = re.compile(r'<div class="caption">\s*(.*?)</div>', re.S)


def describe_images(page):
    """Doxygen writes every Markdown image with alt="": a reader who cannot see it gets
    nothing. Gives each the text Doxygen put in its title attribute or in the caption below
    it. Returns how many images of @p page were changed."""
    text = page.read_text(encoding="utf-8", errors="replace")
    if 'alt=""' not in text:
        return 0
    count = 0

    def replace(found):
        nonlocal count
        title = re.search(r'title="([^"]*)"', found.group(0))
        words = title.group(1) if title else ""
        if not words:
            caption = CAPTION.match(text, found.end() + len(re.match(
                r"\s*", text[found.end():]).group(0)))
            words = html_escape.escape(re.sub(r"<[^>]+>", "", caption.group(1)).strip(),
                                       quote=True) if caption else ""
        if not words:
            return found.group(0)
        count += 1
        return '<img %salt="%s"%s>' % (found.group(1), words, found.group(2))

    text = IMAGE_TAG.sub(replace, text)
    if count:
        page.write_text(text, encoding="utf-8")
    return count


if __name__ == "__main__":
    sys.exit(main())
