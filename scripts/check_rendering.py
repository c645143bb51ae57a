#!/usr/bin/env python3
"""Opens the course book's pages in headless Chromium and fails on what a reader would see
broken. Run by the docs target (docs/CMakeLists.txt) when Chromium is installed.

    python3 scripts/check_rendering.py <build dir>/docs/html [--screenshots DIR] [--report]
                                        [--width 1280] [--chromium PATH]

It checks every page written from Markdown (the main page, the lessons, the results pages,
the deep dives and the other pages of docs/ and grading/), not the API reference. In the
browser (check_rendering.js):

* literal markup: text a reader sees that is markup Doxygen did not convert, outside code
  blocks: an HTML tag such as `<tt>` shown as text, a raw Markdown table row (`|---|`, or a
  table with only a header row), a code fence, a `{#label}`, an `@ref`, a Markdown link
  `[text](target)` left as text;
* tables wider than the page: a table whose content is wider than the column it sits in at
  a window of --width pixels (the book's style sheet then makes it scroll, which cuts it at
  the right edge on screen and in print);
* an option whose `--` Doxygen turned into a dash ("–serial-max"), an exponent written
  2^10, formula markup (`\\frac`, `$x_i$`) shown as text; an option turned into a dash in a
  tooltip or a link's title;
* headings: one whose line height is less than its font (its lines would be drawn over each
  other when it wraps); on the results pages, one that reads as a file name ("shapes h100
  rooms");
* missing glyphs: a character that no installed font draws (it would show as an empty box;
  `scripts/install_deps.sh --render` installs the CJK fonts the notes' titles need);
* figures: an image that does not load or has no alt text.

In the page's Markdown: indented lines inside a paragraph (Markdown joins them: a benchmark
log read as one paragraph), a figure with no `<!-- figure: SCRIPT -->` next to it naming
the committed script that drew it, test counts written as letters ("N of the M tests"), and on
a results page a heading that is a file name or a page that does not open with its headline
(the first section, whose first table is a summary of at most 12 rows).

In every HTML page of the book, the API reference and the source pages included (no browser
needed): an option whose `--` became a dash, in the text or in a tooltip.

With --screenshots DIR it saves a full-length PNG of each lesson page there. The browser
runs with a fixed window, no GPU, no network, and the checks run after the page's load event
and its fonts, so the verdict depends only on the HTML. Exit status: 0 when every page is
clean (or with --report), 1 when a defect was found, 2 when the pages or Chromium are
missing. Chromium is driven through its DevTools protocol on a pipe (no extra packages).
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile

# The page-side checks, in JavaScript beside this script.
MEASURE = (pathlib.Path(__file__).resolve().parent / "check_rendering.js").read_text(
    encoding="utf-8")

SETTLE = """
new Promise(resolve => document.fonts.ready.then(() =>
  requestAnimationFrame(() => requestAnimationFrame(() => resolve(1)))))
"""


class Browser:
    """Headless Chromium driven over --remote-debugging-pipe (file descriptors 3 and 4)."""

    def __init__(self, executable, width, height):
        self.profile = tempfile.mkdtemp(prefix="course-render-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def child_fds():
            # Chromium reads commands from fd 3 and writes replies to fd 4. Move both ends out
            # of the way first, in case one of them is already 3 or 4. dup2 makes them
            # inheritable; every other descriptor of ours closes on exec.
            read_end, write_end = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        self.process = subprocess.Popen(
            [executable, "--headless=new", "--remote-debugging-pipe", "--no-sandbox",
             "--disable-gpu", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--disable-background-networking",
             "--disable-component-update", "--hide-scrollbars", "--mute-audio",
             "--allow-file-access-from-files", "--force-device-scale-factor=1",
             "--user-data-dir=" + self.profile, "--window-size=%d,%d" % (width, height),
             "about:blank"],
            close_fds=False, preexec_fn=child_fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        self.width, self.height = width, height
        self.call("Page.enable", session=True)
        self.resize(height)

    def send(self, method, params, session):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        return self.next_id

    def receive(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe (did it start?)")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=False):
        wanted = self.send(method, params, session)
        while True:
            message = self.receive()
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"]))
                return message.get("result", {})
            if "method" in message:
                self.events.append(message["method"])

    def wait_for(self, event):
        while event not in self.events:
            message = self.receive()
            if "method" in message:
                self.events.append(message["method"])
        self.events.clear()

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                "returnByValue": True}, session=True)
        if "exceptionDetails" in result:
            raise RuntimeError("script failed: %s" % result["exceptionDetails"])
        return result["result"].get("value")

    def resize(self, height):
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": height, "deviceScaleFactor": 1,
                   "mobile": False}, session=True)

    def open(self, path):
        self.events.clear()
        self.call("Page.navigate", {"url": path.as_uri()}, session=True)
        self.wait_for("Page.loadEventFired")
        self.evaluate(SETTLE)

    def screenshot(self, height, destination):
        import base64
        self.resize(min(height + 200, 30000))
        self.evaluate(SETTLE)
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        destination.write_bytes(base64.b64decode(data))
        self.resize(self.height)

    def close(self):
        try:
            self.call("Browser.close")
        except (RuntimeError, OSError):
            pass
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def book_pages(html):
    """The pages written from Markdown: the main page (index.html) and every page that
    Doxygen's list of pages (pages.html) links to."""
    listing = html / "pages.html"
    if not listing.is_file():
        return []
    names = re.findall(r'class="el" href="([^"#]+\.html)"', listing.read_text(encoding="utf-8"))
    pages = [html / "index.html"] + [html / name for name in dict.fromkeys(names)]
    return [page for page in pages if page.is_file()]


REPO = pathlib.Path(__file__).resolve().parents[1]
TABLE_DELIMITER = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


def markdown_sources():
    """Page file name -> the Markdown file it was written from."""
    sources = {"index.html": REPO / "docs" / "mainpage.md"}
    for readme in list(REPO.glob("*/README.md")) + list(REPO.glob("*/*/README.md")):
        folder = readme.parent.relative_to(REPO).as_posix()
        sources["md_%s_README.html" % folder.replace("/", "_")] = readme
    for page in (REPO / "docs").glob("*.md"):
        label = re.search(r"^#[^\n]*\{#([\w-]+)\}", page.read_text(encoding="utf-8"), re.M)
        if label:
            sources["%s.html" % label.group(1)] = page
    return sources


class SourceLines:
    """Where a page's defects are in its Markdown: the line of each table Doxygen renders (in
    order), of each table it cannot (a header row with no body) and of each text."""

    def __init__(self, path):
        self.path = path
        self.lines = path.read_text(encoding="utf-8").split("\n")
        self.tables, self.header_only = [], []
        fence, number = False, 0
        while number < len(self.lines):
            line = self.lines[number]
            if line.lstrip().startswith("```"):
                fence = not fence
            elif (not fence and line.lstrip().startswith("|") and number + 1 < len(self.lines)
                  and TABLE_DELIMITER.match(self.lines[number + 1])):
                end = number + 2
                while end < len(self.lines) and self.lines[end].lstrip().startswith("|"):
                    end += 1
                (self.tables if end > number + 2 else self.header_only).append(number + 1)
                number = end
                continue
            number += 1
        self.raw_rows_reported = 0

    def where(self, item):
        name = self.path.relative_to(REPO)
        if "table" in item:
            index = item["table"]
            return "%s:%s" % (name, self.tables[index] if index < len(self.tables) else "?")
        if item["what"] == "raw Markdown table row" and self.header_only:
            index = min(self.raw_rows_reported, len(self.header_only) - 1)
            self.raw_rows_reported += 1
            return "%s:%d" % (name, self.header_only[index])
        words = re.sub(r"</?\w+>", "`", item["text"])
        for piece in sorted(re.split(r"[`\"|]", words), key=len, reverse=True)[:3]:
            piece = piece.strip()
            if len(piece) < 8:
                continue
            for number, line in enumerate(self.lines, 1):
                if piece in line:
                    return "%s:%d" % (name, number)
        return str(name)


LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+\.)\s+")
FENCE = re.compile(r"^\s*(```|~~~|[@\\](code|verbatim|dot|msc)\b)")
FENCE_END = {"```": "```", "~~~": "~~~"}
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)|<img\s[^>]*src=\"([^\"]+)\"|"
                   r"[@\\]image\s+html\s+(\S+)")
FIGURE_SOURCE = re.compile(r"<!--\s*figure:\s*(\S+)\s*-->")


def committed_files():
    try:
        listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z"],
                                capture_output=True, check=True).stdout
        return set(listed.decode("utf-8", "replace").split("\0"))
    except (OSError, subprocess.CalledProcessError):
        return None


def paragraphs(lines):
    """(first line index, [lines]) of each run of non-blank lines outside code blocks."""
    found, current, start, fence = [], [], 0, None
    for index, line in enumerate(lines + [""]):
        stripped = line.strip()
        if fence:
            if stripped.startswith(fence) or re.match(r"[@\\]end" + fence[1:], stripped):
                fence = None
            continue
        match = FENCE.match(line)
        if match:
            if current:
                found.append((start, current))
            current = []
            token = match.group(1)
            fence = FENCE_END.get(token, "@" + token[1:])
            continue
        if not stripped:
            if current:
                found.append((start, current))
            current = []
            continue
        if not current:
            start = index
        current.append(line)
    return found


def source_defects(path, committed):
    """Defects seen in a page's Markdown itself: (line, kind, what, text)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    found = []
    for start, block in paragraphs(lines):
        first = block[0]
        if first.lstrip().startswith(("|", "<!--", ">", "#")) or len(first) - len(
                first.lstrip()) >= 4:
            continue  # a table, a comment, a quote, a heading, an indented code block
        item = LIST_ITEM.match(first)
        base = len(item.group(0)) if item else len(first) - len(first.lstrip())
        for offset, line in enumerate(block[1:], 1):
            nested = LIST_ITEM.match(line)
            if nested:
                base = len(nested.group(0))
                continue
            indent = len(line) - len(line.lstrip())
            if indent >= base + 2 and not line.lstrip().startswith(("|", "<!--")):
                # Markdown joins it to the line above: the layout it was indented for is lost
                # (a benchmark log read as one paragraph).
                found.append((start + offset + 1, "indented text in a paragraph",
                              "joined into one paragraph (put it in a ``` code block)",
                              line.strip()[:100]))
                break
    # Test counts are numbers: "N of the M tests" is a placeholder a reader cannot use.
    for index, line in enumerate(lines):
        match = COUNT_LETTERS.search(line)
        if match:
            found.append((index + 1, "test count", "letters instead of the counts (the build's "
                          "tests: scripts/check_test_counts.py)", match.group(0)))
    if re.fullmatch(r"results_step\d+(_archive)?", path.stem):
        found += results_defects(path, lines)
    # Every figure names the committed script that drew it, next to where it is shown.
    fence = None
    for index, line in enumerate(lines):
        if FENCE.match(line) or fence:
            fence = None if fence and line.strip().startswith(fence) else (fence or "```")
            continue
        for match in IMAGE.finditer(line):
            name = next(group for group in match.groups() if group)
            if "://" in name:
                continue
            nearby = " ".join(lines[max(0, index - 2):index + 1])
            scripts = FIGURE_SOURCE.findall(nearby)
            if not scripts:
                found.append((index + 1, "figure", "no script named next to it (add <!-- "
                              "figure: path/of/script.py --> on the line before)", name))
            for script in scripts:
                if not (REPO / script).is_file() or (committed is not None and
                                                      script not in committed):
                    found.append((index + 1, "figure", "its script %s is not a committed file"
                                  % script, name))
    return found


# An option whose -- became a dash: "–approach" in a page, a tooltip or a link's title.
OPTION_DASH = re.compile(r"(?:^|[\s(\[/\"'>])(?:&ndash;|&mdash;|\u2013|\u2014)"
                         r"([a-z][a-z0-9]*(?:-[a-z0-9]+)*)")


def option_dashes(html):
    """(page, option, text around it) of every option turned into a dash in any page of the
    book: the lessons, the API reference, the source pages and their tooltips (Doxygen writes
    a member's brief into each link's title and each tooltip)."""
    found = []
    for page in sorted(html.glob("*.html")):
        text = page.read_text(encoding="utf-8", errors="replace")
        for match in OPTION_DASH.finditer(text):
            start = max(0, match.start() - 60)
            context = re.sub(r"<[^>]*>", " ", text[start:match.end() + 20])
            found.append((page.name, match.group(1), re.sub(r"\s+", " ", context).strip()))
    return found


HEADING_LINE = re.compile(r"^(#{1,6})\s+(.*?)\s*(\{#[\w-]+\})?\s*$")
FILE_NAME = re.compile(r"\b[\w-]+\.(txt|md|log|csv|json)\b|"
                       r"\b(?!sm_\d|compute_\d)[a-z0-9]+(_[a-z0-9]+)+\b|"
                       r"(^|\s)h(100|200)\b")
COUNT_LETTERS = re.compile(r"\b[A-Z] of the [A-Z] tests\b")
HEADLINE_ROWS = 12


def headings_of(lines):
    """(line index, level, text) of the Markdown headings outside code blocks."""
    found, fence = [], None
    for index, line in enumerate(lines):
        if FENCE.match(line) or fence:
            fence = None if fence and line.strip().startswith(fence) else (fence or "```")
            continue
        match = HEADING_LINE.match(line)
        if match:
            text = re.sub(r"<!--.*?-->|`[^`]*`", "", match.group(2)).strip()
            found.append((index, len(match.group(1)), text))
    return found


def results_defects(path, lines):
    """Defects of a results page (docs/results_stepN.md): it opens with its headline (the
    first section, whose first table is the page's first and a summary of at most
    HEADLINE_ROWS rows), and no heading is a file name."""
    found = []
    headings = headings_of(lines)
    for index, _, text in headings:
        if FILE_NAME.search(text):
            found.append((index + 1, "heading", "a file name as a heading (the manifest's "
                          "\"titles\" give each run a title in words)", text[:100]))
    if path.stem.endswith("_archive"):
        return found
    sections = [(index, text) for index, level, text in headings if level == 2]
    tables = [i for i, line in enumerate(lines[:-1]) if line.lstrip().startswith("|") and
              TABLE_DELIMITER.match(lines[i + 1]) and not (i and lines[i - 1].lstrip()
                                                          .startswith("|"))]
    if not tables:
        return found
    headline = [index for index, line in enumerate(lines) if "_headline}" in line and
                HEADING_LINE.match(line)]
    if not headline:
        found.append((tables[0] + 1, "results page", "it shows tables but no headline section "
                      "(the manifest's \"headline\")", path.name))
        return found
    if sections and sections[0][0] != headline[0]:
        found.append((sections[0][0] + 1, "results page", "it does not open with its headline: "
                      "the first section is another", sections[0][1][:100]))
    if tables[0] < headline[0]:
        found.append((tables[0] + 1, "results page", "a table comes before the headline",
                      lines[tables[0]][:100]))
    else:
        rows = 0
        for line in lines[tables[0] + 2:]:
            if not line.lstrip().startswith("|"):
                break
            rows += 1
        if rows > HEADLINE_ROWS:
            found.append((tables[0] + 1, "results page", "it opens with a table of %d rows, not "
                          "a headline of at most %d (put the case-by-case table in a section "
                          "of its own)" % (rows, HEADLINE_ROWS), lines[tables[0]][:100]))
    return found


def find_chromium(given):
    for name in ([given] if given else ["chromium", "chromium-browser", "google-chrome"]):
        found = shutil.which(name) if name else None
        if found:
            return found
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("html", type=pathlib.Path, help="the book's HTML folder")
    parser.add_argument("--screenshots", type=pathlib.Path,
                        help="save a PNG of each lesson page (md_step*_README.html) here")
    parser.add_argument("--report", action="store_true",
                        help="list the defects but exit 0 (for a tree known to have some)")
    parser.add_argument("--width", type=int, default=1280, help="window width in pixels")
    parser.add_argument("--chromium", help="the browser (default: chromium on PATH)")
    parser.add_argument("--time-limit", type=int, default=600,
                        help="seconds for the whole run (default: %(default)s)")
    args = parser.parse_args()
    html = args.html.resolve()
    pages = book_pages(html) if html.is_dir() else []
    if not pages:
        print("no book pages in %s: build the docs first" % html)
        return 2
    executable = find_chromium(args.chromium)
    if not executable:
        print("Chromium not found (install Debian's chromium, or pass --chromium PATH)")
        return 2
    if args.screenshots:
        args.screenshots.mkdir(parents=True, exist_ok=True)
    # A browser that stops answering must not hang the build: give the whole run a limit.
    signal.signal(signal.SIGALRM, lambda *_: sys.exit("Chromium did not finish within %d s"
                                                      % args.time_limit))
    signal.alarm(args.time_limit)
    browser = Browser(executable, args.width, 900)
    defects = 0
    sources = markdown_sources()
    committed = committed_files()
    try:
        for page in pages:
            browser.open(page)
            result = json.loads(browser.evaluate(MEASURE))
            source = SourceLines(sources[page.name]) if page.name in sources else None
            if source:
                for line, kind, what, text in source_defects(source.path, committed):
                    defects += 1
                    print("%s:%d (%s): %s: %s: \"%s\"" % (
                        source.path.relative_to(REPO), line, page.name, kind, what, text))
            for item in result["found"]:
                defects += 1
                print("%s (%s): %s: %s: \"%s\"" % (
                    source.where(item) if source else "?", page.name, item["kind"],
                    item["what"], item["text"]))
            if args.screenshots and re.match(r"md_step\d+_.*README\.html$", page.name):
                browser.screenshot(result["height"],
                                   args.screenshots / page.name.replace(".html", ".png"))
    finally:
        browser.close()
    # Every page of the book, the API reference and the source pages included: an option
    # whose -- became a dash, in the text or in a tooltip (no browser needed).
    dashes = option_dashes(html)
    for name, option, text in dashes:
        print("%s: option mangled into a dash: --%s reads as a dash: \"%s\"" % (
            name, option, text))
    defects += len(dashes)
    print("%d pages rendered at %d px, %d defect(s)%s" % (
        len(pages), args.width, defects,
        "; screenshots in %s" % args.screenshots if args.screenshots else ""))
    return 1 if defects and not args.report else 0


if __name__ == "__main__":
    sys.exit(main())
