// Records what is drawn on a canvas as SVG elements, so a chart's SVG image is
// made from the very drawing calls flot (and its plugins) make for the PNG: no
// second drawing of the series, floors, bands, rings or threshold that could
// drift from the page. A 2D context passes through a recorder that forwards
// every call to the real context and turns each stroke/fill into an SVG
// element in the canvas's device pixels; current state (transform, colours,
// line width, dashes, alpha) is read back from the real context, so only the
// path is tracked here. Covers what flot 4 draws with: paths (moveTo, lineTo,
// arc, rect, closePath), fillRect/strokeRect, clearRect of the whole canvas,
// fillText. Loaded by chart.html only, before flot, via installCanvasRecorder().
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else (root.Sockbench = root.Sockbench || {}).canvasSvg = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  const TAU = Math.PI * 2;

  const num = (v) => String(Math.round(v * 100) / 100);

  function escapeXml(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  }

  /**
   * A canvas colour as SVG paint: rgba() → rgb() plus an opacity, since not
   * every SVG reader takes rgba(). Gradients and patterns are not used by the
   * charts; they become a neutral grey rather than vanishing.
   * @returns {{paint: string, opacity: number}}
   */
  function paintOf(style) {
    if (typeof style !== 'string') return { paint: '#888888', opacity: 1 };
    const m = /^rgba\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*\)$/.exec(style);
    if (m) return { paint: `rgb(${m[1]},${m[2]},${m[3]})`, opacity: Number(m[4]) };
    return { paint: style, opacity: 1 };
  }

  /**
   * The SVG side of one canvas.
   * @param {{width: number, height: number}} canvas its size in device pixels
   * @param {() => {a,b,c,d,e,f}} currentTransform the real context's transform
   * @param {() => object} currentStyle the real context's strokeStyle, fillStyle,
   *   lineWidth, lineCap, lineJoin, globalAlpha, lineDash, font
   */
  function createRecorder(canvas, currentTransform, currentStyle) {
    let elements = [];
    let path = [];
    let hasPoint = false;

    const apply = (x, y) => {
      const m = currentTransform();
      return [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
    };
    const scaleOf = () => {
      const m = currentTransform();
      return Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    };
    const moveTo = (x, y) => { const [px, py] = apply(x, y); path.push(`M${num(px)} ${num(py)}`); hasPoint = true; };
    const lineTo = (x, y) => {
      if (!hasPoint) return moveTo(x, y);
      const [px, py] = apply(x, y);
      path.push(`L${num(px)} ${num(py)}`);
      return undefined;
    };

    function arc(x, y, r, start, end, ccw) {
      const [cx, cy] = apply(x, y);
      const radius = r * scaleOf();
      let sweep = ccw ? start - end : end - start;
      const full = Math.abs(sweep) >= TAU;
      if (!full) sweep = ((sweep % TAU) + TAU) % TAU;
      const at = (angle) => {
        const m = currentTransform();
        const rot = Math.atan2(m.b, m.a);
        return [cx + radius * Math.cos(angle + rot), cy + radius * Math.sin(angle + rot)];
      };
      const [sx, sy] = at(start);
      path.push(`${hasPoint ? 'L' : 'M'}${num(sx)} ${num(sy)}`);
      hasPoint = true;
      const flag = ccw ? 0 : 1;
      if (full) {
        const [mx, my] = at(start + Math.PI * (ccw ? -1 : 1));
        path.push(`A${num(radius)} ${num(radius)} 0 0 ${flag} ${num(mx)} ${num(my)}`);
        path.push(`A${num(radius)} ${num(radius)} 0 0 ${flag} ${num(sx)} ${num(sy)}`);
        return;
      }
      const [ex, ey] = at(end);
      path.push(`A${num(radius)} ${num(radius)} 0 ${sweep > Math.PI ? 1 : 0} ${flag} ${num(ex)} ${num(ey)}`);
    }

    function rectPath(x, y, w, h) {
      const corners = [[x, y], [x + w, y], [x + w, y + h], [x, y + h]].map(([px, py]) => apply(px, py));
      return `M${corners.map(([px, py]) => `${num(px)} ${num(py)}`).join(' L')} Z`;
    }

    function strokeAttrs() {
      const s = currentStyle();
      const { paint, opacity } = paintOf(s.strokeStyle);
      const scale = scaleOf();
      const attrs = [`fill="none"`, `stroke="${escapeXml(paint)}"`, `stroke-width="${num(s.lineWidth * scale)}"`,
        `stroke-linecap="${s.lineCap}"`, `stroke-linejoin="${s.lineJoin}"`];
      if (opacity * s.globalAlpha < 1) attrs.push(`stroke-opacity="${num(opacity * s.globalAlpha)}"`);
      if (s.lineDash && s.lineDash.length) attrs.push(`stroke-dasharray="${s.lineDash.map((d) => num(d * scale)).join(' ')}"`);
      return attrs.join(' ');
    }

    function fillAttrs() {
      const s = currentStyle();
      const { paint, opacity } = paintOf(s.fillStyle);
      const attrs = [`fill="${escapeXml(paint)}"`, 'stroke="none"'];
      if (opacity * s.globalAlpha < 1) attrs.push(`fill-opacity="${num(opacity * s.globalAlpha)}"`);
      return attrs.join(' ');
    }

    const emitPath = (d, attrs) => { if (d) elements.push(`<path d="${d}" ${attrs}/>`); };

    const calls = {
      beginPath() { path = []; hasPoint = false; },
      moveTo,
      lineTo,
      arc,
      closePath() { if (hasPoint) path.push('Z'); },
      rect(x, y, w, h) { path.push(rectPath(x, y, w, h)); hasPoint = true; },
      stroke() { emitPath(path.join(' '), strokeAttrs()); },
      fill() { emitPath(path.join(' '), fillAttrs()); },
      fillRect(x, y, w, h) { emitPath(rectPath(x, y, w, h), fillAttrs()); },
      strokeRect(x, y, w, h) { emitPath(rectPath(x, y, w, h), strokeAttrs()); },
      clearRect(x, y, w, h) {
        // flot clears the whole canvas before each redraw: start the picture again.
        const [x0, y0] = apply(x, y);
        const [x1, y1] = apply(x + w, y + h);
        if (x0 <= 0 && y0 <= 0 && x1 >= canvas.width && y1 >= canvas.height) elements = [];
      },
      fillText(text, x, y) {
        // In user units under the context's own transform, so the font size stays the page's.
        const s = currentStyle();
        const m = currentTransform();
        const { paint, opacity } = paintOf(s.fillStyle);
        const anchor = { center: 'middle', right: 'end', end: 'end' }[s.textAlign] || 'start';
        elements.push(`<text transform="matrix(${[m.a, m.b, m.c, m.d, m.e, m.f].map(num).join(' ')})" x="${num(x)}" y="${num(y)}" ` +
          `fill="${escapeXml(paint)}"${opacity < 1 ? ` fill-opacity="${num(opacity)}"` : ''} text-anchor="${anchor}" ` +
          `style="font: ${escapeXml(s.font)}">${escapeXml(text)}</text>`);
      },
    };

    return {
      /** Called for every method call on the context, before the real one runs. */
      call(name, args) { if (calls[name]) calls[name](...args); },
      /** The SVG elements drawn since the last full clear, in device pixels. */
      svg() { return elements.join('\n'); },
    };
  }

  /** Style the recorder reads back from a real CanvasRenderingContext2D. */
  function styleOf(ctx) {
    return {
      strokeStyle: ctx.strokeStyle, fillStyle: ctx.fillStyle, lineWidth: ctx.lineWidth, lineCap: ctx.lineCap,
      lineJoin: ctx.lineJoin, globalAlpha: ctx.globalAlpha, lineDash: ctx.getLineDash(), font: ctx.font, textAlign: ctx.textAlign,
    };
  }

  /**
   * Makes every 2D context of this page record itself: getContext('2d')
   * returns a proxy of the real context (same drawing) whose canvas then has
   * `sockbenchSvg()`. Call before any canvas is drawn on.
   */
  function installCanvasRecorder(win) {
    const proto = win.HTMLCanvasElement.prototype;
    const original = proto.getContext;
    const proxies = new WeakMap();
    proto.getContext = function getContext(type, ...rest) {
      const ctx = original.call(this, type, ...rest);
      if (type !== '2d' || !ctx) return ctx;
      if (proxies.has(ctx)) return proxies.get(ctx);
      const canvas = this;
      const recorder = createRecorder(canvas, () => ctx.getTransform(), () => styleOf(ctx));
      canvas.sockbenchSvg = () => recorder.svg();
      const proxy = new Proxy(ctx, {
        get(target, prop) {
          const value = target[prop];
          if (typeof value !== 'function') return value;
          return (...args) => {
            recorder.call(prop, args);
            return value.apply(target, args);
          };
        },
        set(target, prop, value) {
          target[prop] = value;
          return true;
        },
      });
      proxies.set(ctx, proxy);
      return proxy;
    };
  }

  return { createRecorder, installCanvasRecorder, paintOf, escapeXml };
});
