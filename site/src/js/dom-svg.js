// Turns the chart export frame (chart.html) into one SVG document: each
// canvas as the SVG its drawing calls recorded (canvas-svg.js), every piece of
// text (title, tick labels from flot's SVG layer, rotated axis labels, legend,
// footer) as <text> at the place the browser laid it out, and boxes with a
// background or border as rectangles and lines. The layout is the browser's
// own, so the SVG matches the PNG screenshot of the same frame. Browser only.
(function (root) {
  'use strict';

  const { canvasSvg } = root.Sockbench;
  const esc = canvasSvg.escapeXml;
  const num = (v) => String(Math.round(v * 100) / 100);

  const transparent = (color) => !color || color === 'transparent' || /rgba\(.*,\s*0\)$/.test(color);

  function paintAttr(name, color) {
    const { paint, opacity } = canvasSvg.paintOf(color);
    return `${name}="${esc(paint)}"${opacity < 1 ? ` ${name}-opacity="${num(opacity)}"` : ''}`;
  }

  const fontAttrs = (cs) => `font-family="${esc(cs.fontFamily)}" font-size="${esc(cs.fontSize)}" ` +
    `font-weight="${esc(cs.fontWeight)}" font-style="${esc(cs.fontStyle)}"`;

  // Canvas font metrics give the baseline inside a line box of text.
  const metricsCanvas = document.createElement('canvas').getContext('2d');
  function ascentIn(cs, rect) {
    metricsCanvas.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const m = metricsCanvas.measureText('Hg');
    const height = m.fontBoundingBoxAscent + m.fontBoundingBoxDescent;
    return (rect.height - height) / 2 + m.fontBoundingBoxAscent;
  }

  /** Lines of a text node as laid out: [{text, rect}] (a wrapped node gives several). */
  function textLines(node) {
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    const whole = node.textContent.replace(/\s+/g, ' ').trim();
    if (rects.length <= 1) return rects.length ? [{ text: whole, rect: rects[0] }] : [];
    // Wrapped: measure word by word and group the words by the line they sit on.
    // A word may break after a hyphen ("client-|bound"): its parts are measured apart.
    const lines = [];
    const re = /[^\s-]*-+|[^\s-]+/g;
    let match;
    while ((match = re.exec(node.textContent))) {
      if (!match[0]) { re.lastIndex += 1; continue; }
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const r = range.getBoundingClientRect();
      if (r.width === 0) continue;
      const glued = match.index > 0 && node.textContent[match.index - 1] === '-';
      const line = lines.find((l) => Math.abs(l.rect.top - r.top) < r.height / 2);
      if (line) {
        line.words.push(glued ? `\u0000${match[0]}` : match[0]);
        line.rect = { left: Math.min(line.rect.left, r.left), top: line.rect.top, height: line.rect.height,
          width: Math.max(line.rect.left + line.rect.width, r.right) - Math.min(line.rect.left, r.left) };
      } else {
        lines.push({ words: [match[0]], rect: { left: r.left, top: r.top, width: r.width, height: r.height } });
      }
    }
    return lines.map((l) => ({ text: l.words.join(' ').replace(/ \u0000/g, ''), rect: l.rect }));
  }

  /**
   * @param {HTMLElement} frame the element whose picture is wanted
   * @returns {string} a standalone SVG document, frame-sized, in CSS pixels
   */
  function frameToSvg(frame) {
    const origin = frame.getBoundingClientRect();
    const X = (x) => num(x - origin.left);
    const Y = (y) => num(y - origin.top);
    const out = [];

    function text(content, rect, cs, color, angle) {
      if (!content) return;
      if (angle) {
        const cx = rect.left + rect.width / 2;
        const cy = rect.top + rect.height / 2;
        out.push(`<text x="${X(cx)}" y="${Y(cy)}" text-anchor="middle" dominant-baseline="central" ` +
          `transform="rotate(${num(angle)} ${X(cx)} ${Y(cy)})" ${fontAttrs(cs)} ${paintAttr('fill', color)}>${esc(content)}</text>`);
        return;
      }
      out.push(`<text x="${X(rect.left)}" y="${Y(rect.top + ascentIn(cs, rect))}" ${fontAttrs(cs)} ` +
        `${paintAttr('fill', color)}>${esc(content)}</text>`);
    }

    function box(el, cs) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return;
      if (!transparent(cs.backgroundColor)) {
        const radius = parseFloat(cs.borderTopLeftRadius) || 0;
        out.push(`<rect x="${X(r.left)}" y="${Y(r.top)}" width="${num(r.width)}" height="${num(r.height)}"` +
          `${radius ? ` rx="${num(radius)}"` : ''} ${paintAttr('fill', cs.backgroundColor)}/>`);
      }
      const sides = [['Top', r.left, r.top, r.right, r.top], ['Bottom', r.left, r.bottom, r.right, r.bottom],
        ['Left', r.left, r.top, r.left, r.bottom], ['Right', r.right, r.top, r.right, r.bottom]];
      for (const [side, x1, y1, x2, y2] of sides) {
        const width = parseFloat(cs[`border${side}Width`]) || 0;
        const style = cs[`border${side}Style`];
        if (!width || style === 'none' || style === 'hidden' || transparent(cs[`border${side}Color`])) continue;
        const dash = style === 'dashed' ? ` stroke-dasharray="${num(width * 3)} ${num(width * 2)}"`
          : (style === 'dotted' ? ` stroke-dasharray="${num(width)} ${num(width)}"` : '');
        const inset = width / 2;
        const [ix1, iy1, ix2, iy2] = side === 'Top' || side === 'Bottom'
          ? [x1, y1 + (side === 'Top' ? inset : -inset), x2, y2 + (side === 'Top' ? inset : -inset)]
          : [x1 + (side === 'Left' ? inset : -inset), y1, x2 + (side === 'Left' ? inset : -inset), y2];
        out.push(`<line x1="${X(ix1)}" y1="${Y(iy1)}" x2="${X(ix2)}" y2="${Y(iy2)}" ${paintAttr('stroke', cs[`border${side}Color`])} ` +
          `stroke-width="${num(width)}"${dash}/>`);
      }
    }

    /** A ::before glyph (legend keys draw ✕, ○, ◎ that way), placed by its own left/top. */
    function pseudoText(el) {
      const ps = getComputedStyle(el, '::before');
      const m = /^"(.*)"$/.exec(ps.content || '');
      if (!m || !m[1]) return;
      const r = el.getBoundingClientRect();
      const left = r.left + (parseFloat(ps.left) || 0);
      const top = r.top + (parseFloat(ps.top) || 0);
      const size = parseFloat(ps.fontSize) || 12;
      text(m[1], { left, top, width: size, height: size * 1.2 }, ps, ps.color, 0);
    }

    function canvas(el) {
      const r = el.getBoundingClientRect();
      if (!el.sockbenchSvg || !el.width) return;
      out.push(`<g transform="translate(${X(r.left)} ${Y(r.top)}) scale(${num(r.width / el.width)})">`, el.sockbenchSvg(), '</g>');
    }

    function walk(el) {
      const cs = getComputedStyle(el);
      if (cs.display === 'none' || cs.visibility === 'hidden') return;
      if (el instanceof HTMLCanvasElement) { canvas(el); return; }
      const isSvg = el instanceof SVGElement;
      if (!isSvg) { box(el, cs); pseudoText(el); }
      for (const child of el.childNodes) {
        if (child.nodeType === Node.ELEMENT_NODE) walk(child);
        else if (child.nodeType === Node.TEXT_NODE && child.textContent.trim()) {
          let angle = 0;
          if (isSvg && el.getScreenCTM) {
            const m = el.getScreenCTM();
            angle = Math.round((Math.atan2(m.b, m.a) * 180) / Math.PI);
          }
          const color = isSvg ? cs.fill : cs.color;
          if (angle) {
            const range = document.createRange();
            range.selectNodeContents(child);
            text(child.textContent.replace(/\s+/g, ' ').trim(), range.getBoundingClientRect(), cs, color, angle);
          } else {
            for (const line of textLines(child)) text(line.text, line.rect, cs, color, 0);
          }
        }
      }
    }

    const W = num(origin.width);
    const H = num(origin.height);
    walk(frame);
    return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" ` +
      `viewBox="0 0 ${W} ${H}">\n<rect width="${W}" height="${H}" fill="#ffffff"/>\n${out.join('\n')}\n</svg>\n`;
  }

  root.Sockbench.domSvg = { frameToSvg };
})(self);
