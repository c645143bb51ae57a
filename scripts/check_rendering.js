// The measurements scripts/check_rendering.py makes in each page of the book, in headless
// Chromium after the page's fonts: literal markup, options turned into dashes, ^ exponents,
// formula markup, tables wider than the page, missing glyphs and figures. Returns JSON:
// {found: [{kind, what, text[, table]}], height}.
(() => {
  const root = document.querySelector('div.contents') || document.body;
  const inCode = el => el.closest('pre, div.fragment, code, .line, script, style');
  const tags = 'tt|code|b|i|em|strong|sub|sup|br|span|div|p|a|table|tr|td|th|img|ul|ol|li|h[1-6]';
  const patterns = [
    ['HTML tag shown as text', new RegExp('</?(' + tags + ')(\\s[^<>]*)?/?>', 'i')],
    // Doxygen turns the --- of a table it did not recognise into dashes (&mdash;).
    ['raw Markdown table row', /\|\s*:?(-{3,}|[\u2013\u2014]+):?\s*\|/],
    ['raw Markdown table row', /^\|[^|]+\|[^|]+\|/],
    ['code fence shown as text', /```/],
    ['heading label shown as text', /\{#[A-Za-z_][\w-]*\}/],
    ['Doxygen command shown as text', /(^|\s)[@\\](ref|subpage|cond|endcond|brief|param|tparam)\b/],
    ['Markdown link shown as text', /\]\([^()\s]+\)/],
    // Doxygen turns a bare -- into an en dash: "--serial-max" reads "–serial-max".
    ['option mangled into a dash', /(^|[\s(\[\/"'])[\u2013\u2014][A-Za-z]/],
    ['exponent written with ^ (write 2¹⁰ or code)', /[0-9A-Za-z)\]]\^[0-9A-Za-z({-]/],
    ['formula markup shown as text',
     /\\(frac|sum|cdot|times|sqrt|alpha|beta|gamma|delta|le|ge|approx|circ|mathrm|text)\b|\$[^$\s][^$]*[\\^_][^$]*\$|@f[$\[]/],
  ];
  const found = [];
  const blocks = root.querySelectorAll('p, li, h1, h2, h3, h4, h5, h6, td, th, dd, dt, caption, div.title');
  for (const block of blocks) {
    if (inCode(block)) continue;
    // The block's own text, without its code spans (those may show markup on purpose).
    const clone = block.cloneNode(true);
    clone.querySelectorAll('pre, code, div.fragment, ul, ol, table').forEach(n => n.remove());
    const text = clone.textContent.replace(/\s+/g, ' ').trim();
    for (const [what, pattern] of patterns) {
      const match = text.match(pattern);
      if (match) {
        const at = Math.max(0, match.index - 40);
        found.push({kind: 'literal markup', what: what, text: text.slice(at, at + 120)});
        break;  // one report per block is enough to find it
      }
    }
  }
  // Headings: one whose line height is smaller than its font draws its lines over each other
  // when it wraps; on a results page, one that reads as a file name ("shapes h100 rooms",
  // "run_h100.txt") tells the reader nothing (the manifest gives every run a title in words).
  const fileName = /\b[\w-]+\.(txt|md|log|csv|json)\b|\b(?!sm_\d|compute_\d)[a-z0-9]+(_[a-z0-9]+)+\b|(^|\s)h(100|200)\b/;
  const headings = [...root.querySelectorAll('h1, h2, h3, h4, h5, h6'),
                    ...document.querySelectorAll('div.header div.title')];
  for (const heading of headings) {
    if (inCode(heading)) continue;
    const style = getComputedStyle(heading);
    const size = parseFloat(style.fontSize), line = parseFloat(style.lineHeight);
    const clone = heading.cloneNode(true);
    clone.querySelectorAll('code, tt, .anchor').forEach(n => n.remove());
    const text = clone.textContent.replace(/\s+/g, ' ').trim();
    if (!Number.isNaN(line) && line < size) {
      found.push({kind: 'heading', what: 'lines drawn over each other when it wraps (line height ' +
                  Math.round(line) + ' px, font ' + Math.round(size) + ' px)', text: text.slice(0, 120)});
    }
    // On the results pages, generated from files: a run's heading is its title in words.
    const name = /results_step\d/.test(location.pathname) && text.match(fileName);
    if (name) {
      found.push({kind: 'heading', what: 'a file name as a heading (give it a title in words)',
                  text: text.slice(0, 120)});
    }
  }
  // Tooltips and link titles: Doxygen writes a member's brief there, where a bare -- would show
  // as a dash too.
  const dashed = /(^|[\s(\[\/"'])[\u2013\u2014][A-Za-z]/;
  document.querySelectorAll('[title], div.ttdoc').forEach(el => {
    const text = el.classList && el.classList.contains('ttdoc') ? el.textContent : el.getAttribute('title');
    if (text && dashed.test(text)) {
      found.push({kind: 'literal markup', what: 'option mangled into a dash (tooltip)',
                  text: text.slice(0, 120)});
    }
  });
  const tables = [];
  root.querySelectorAll('table.markdownTable').forEach((table, index) => {
    const column = table.parentElement.getBoundingClientRect();
    const box = table.getBoundingClientRect();
    const overflow = Math.max(table.scrollWidth - table.clientWidth, box.right - column.right);
    if (overflow > 1) {
      const head = table.querySelector('tr');
      found.push({kind: 'table wider than the page', table: index,
                  what: 'table ' + (index + 1) + ' needs ' + Math.round(overflow) + ' px more',
                  text: head ? head.textContent.replace(/\s+/g, ' ').trim().slice(0, 120) : ''});
    }
  });
  // Missing glyphs ("tofu"): each character outside ASCII, drawn in the font its element uses,
  // must not come out as the font's missing-glyph box, which is what an unassigned code
  // point (U+0378) draws. The browser's font fallback applies to both, as on the page.
  const canvas = document.createElement('canvas');
  canvas.width = 64; canvas.height = 64;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  const draw = (font, ch) => {
    ctx.clearRect(0, 0, 64, 64); ctx.font = font; ctx.fillStyle = '#000';
    ctx.textBaseline = 'top'; ctx.fillText(ch, 4, 4);
    return ctx.getImageData(0, 0, 64, 64).data;
  };
  const same = (a, b) => { for (let i = 3; i < a.length; i += 4) if (a[i] !== b[i]) return false;
                           return true; };
  const invisible = /[\p{White_Space}\p{Cf}\p{Mn}\p{Me}\p{Cc}]/u;
  const seen = new Map(), missing = new Map();
  const scope = [document.querySelector('div.header'), root].filter(Boolean);
  for (const top of scope) {
    const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || element.closest('script, style')) continue;
      const style = getComputedStyle(element);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const font = style.fontStyle + ' ' + style.fontWeight + ' 40px ' + style.fontFamily;
      for (const ch of node.textContent) {
        if (ch.codePointAt(0) < 0x80 || invisible.test(ch)) continue;
        const key = font + '|' + ch;
        if (!seen.has(key)) {
          if (!seen.has(font + '|\u0378')) seen.set(font + '|\u0378', draw(font, '\u0378'));
          seen.set(key, same(draw(font, ch), seen.get(font + '|\u0378')));
        }
        if (seen.get(key) && !missing.has(ch)) {
          missing.set(ch, node.textContent.replace(/\s+/g, ' ').trim().slice(0, 80));
        }
      }
    }
  }
  for (const [ch, text] of missing) {
    found.push({kind: 'missing glyph', what: 'no font draws U+' +
                ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0') + ' "' + ch + '"',
                text: text});
  }
  // Figures: every image the page shows is there and says what it shows.
  root.querySelectorAll('img').forEach(img => {
    const name = (img.getAttribute('src') || '').split('/').pop();
    if (img.closest('.navpath, #nav-tree, .memproto')) return;
    if (!img.complete || img.naturalWidth === 0) {
      found.push({kind: 'figure', what: 'image missing', text: name});
    } else if (!(img.getAttribute('alt') || '').trim()) {
      found.push({kind: 'figure', what: 'image without alt text', text: name});
    }
  });
  const scroller = document.getElementById('doc-content') || document.scrollingElement;
  return JSON.stringify({found: found, height: scroller.scrollHeight});
})()
